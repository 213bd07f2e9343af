"""Reads of the stake lobby and of a stake table's result, as plain JSON-ready data."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from economy.models import Entry
from games.models import Seat
from matchmaking.stakes.models import StakeSitter, StakeTable
from matchmaking.stakes.services import stake_amounts, stake_shapes
from matchmaking.stakes.unlock import StakeUnlock, stake_unlocks

RECENT_RESULTS = 5


def _seconds_left(row: StakeTable) -> int:
    return max(0, int((row.fill_deadline - timezone.now()).total_seconds()))


def _table_line(row: StakeTable, names: list[str]) -> dict[str, Any]:
    return {
        "id": row.pk,
        "stake": row.stake,
        "shape": row.shape,
        "seats": row.seats,
        "taken": row.seats_taken,
        "seconds_left": _seconds_left(row),
        "players": names,
    }


def stake_lobby(*, user: User) -> dict[str, Any]:
    """Every stake and shape with its open tables, the player's own table, and the
    results of the player's last stake tables."""
    now = timezone.now()
    open_rows = list(
        StakeTable.objects.filter(
            state=StakeTable.State.OPEN, fill_deadline__gt=now
        ).order_by("-seats_taken", "pk")[:200]
    )
    names: dict[int, list[str]] = defaultdict(list)
    for table_id, name in Seat.objects.filter(
        table_id__in=[r.pk for r in open_rows]
    ).values_list("table_id", "user__username"):
        names[table_id].append(name)
    shapes = stake_shapes()
    played, unlocks = stake_unlocks(user_id=user.pk, stakes=stake_amounts())
    more = {u.stake: u.more for u in unlocks}
    groups = [
        {
            "stake": stake,
            "shape": code,
            "label": shape.label,
            "seats": shape.seats,
            "partnership": shape.partnership,
            # A full table's pot goes whole to the winner or winning pair
            # (``economy.pots``: no commission); a pair shares it.
            "pot": stake * shape.seats,
            "each": stake * shape.seats // 2 if shape.partnership else None,
            # Rated tables still to play before this stake opens (0: open).
            "more": more[stake],
            "tables": [
                _table_line(r, names[r.pk])
                for r in open_rows
                if r.stake == stake and r.shape == code
            ],
        }
        for stake in stake_amounts()
        for code, shape in shapes.items()
    ]
    return {
        "groups": groups,
        "you": _own_table(user),
        "recent": _recent(user),
        "unlock": _unlock_line(played, unlocks),
    }


def _unlock_line(played: int, unlocks: list[StakeUnlock]) -> dict[str, Any]:
    """The player's rated tables, the stakes open to them, and the next to open."""
    locked = [u for u in unlocks if not u.open]
    following = min(locked, key=lambda u: u.needed, default=None)
    return {
        "rated": played,
        "open": [u.stake for u in unlocks if u.open],
        "next": None
        if following is None
        else {
            "stake": following.stake,
            "needed": following.needed,
            "more": following.more,
        },
    }


def _own_table(user: User) -> dict[str, Any] | None:
    sitter = StakeSitter.objects.filter(user=user).select_related("stake_table").first()
    if sitter is None:
        return None
    row = sitter.stake_table
    line = _table_line(row, [])
    line.update(state=row.state, url=f"/tables/{row.pk}/")
    return line


def _recent(user: User) -> list[dict[str, Any]]:
    rows = StakeTable.objects.filter(
        table__seats__user=user,
        state__in=[StakeTable.State.SETTLED, StakeTable.State.CANCELLED],
    ).order_by("-closed_at")[:RECENT_RESULTS]
    return [stake_result(table_id=r.pk) or {} for r in rows]


def stake_result(*, table_id: int) -> dict[str, Any] | None:
    """The pot of a stake table and who received what: its entries, refunds,
    payout and rewards, one line per player. None for a table that is not one."""
    row = StakeTable.objects.filter(pk=table_id).first()
    if row is None:
        return None
    got: dict[str, dict[str, int]] = defaultdict(
        lambda: {"entry": 0, "refund": 0, "payout": 0, "reward": 0}
    )
    for name, kind, amount in Entry.objects.filter(
        transaction__table_ref=str(table_id), account__kind="wallet"
    ).values_list("account__user__username", "transaction__kind", "amount"):
        if kind in ("entry", "refund", "payout", "reward"):
            got[name][kind] += abs(amount)
    players = Seat.objects.filter(table_id=table_id).values_list(
        "user__username", "place", "forfeited"
    )
    lines = [
        {"player": name, "place": place, "forfeited": forfeited, **got[name]}
        for name, place, forfeited in players
    ]
    return {
        "id": row.pk,
        "stake": row.stake,
        "shape": row.shape,
        "state": row.state,
        "state_label": str(row.get_state_display()),
        "reason": row.reason,
        "reason_label": str(row.get_reason_display()) if row.reason else "",
        "pot": row.stake * sum(1 for line in lines if line["entry"]),
        "lines": lines,
    }
