"""What the sit-and-go pages show: the kinds with their open events, the running
ones, a player's history and one event's page (read only)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from economy.pots import places_split
from games.events import EventLink, EventStanding
from games.names import variant_title
from tournaments.sitgo import conf
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable


def payout_table(*, size: int, entry: int) -> list[dict[str, int]]:
    """The payout of a full sit-and-go by place: percent and coins, best first."""
    shares = conf.SHARES[size]
    amounts = places_split(total=size * entry, shares=shares)
    return [
        {"place": place, "share": share, "coins": coins}
        for place, (share, coins) in enumerate(zip(shares, amounts, strict=True), 1)
    ]


def _seconds_left(row: SitGo) -> int | None:
    if row.fill_deadline is None:
        return None
    return max(0, int((row.fill_deadline - timezone.now()).total_seconds()))


def game_label(row: SitGo | None = None) -> str:
    variant = row.variant if row is not None else conf.game()[0]
    options = row.options if row is not None else conf.game()[1]
    target = int(options.get("target", 0))
    return ngettext(
        "%(variant)s to %(target)s point, 4 players at each table",
        "%(variant)s to %(target)s points, 4 players at each table",
        target,
    ) % {"variant": variant_title(variant), "target": target}


def sitgo_kinds(*, user: User) -> list[dict[str, Any]]:
    """Every size and entry with its open sit-and-go (seats taken, time left)."""
    open_rows = {
        (r.size, r.entry): r for r in SitGo.objects.filter(state=SitGo.State.OPEN)
    }
    mine = set(
        SitGoEntry.objects.filter(active_user=user).values_list("sitgo_id", flat=True)
    )
    kinds = []
    for size in conf.SIZES:
        for entry in conf.entry_fees():
            row = open_rows.get((size, entry))
            kinds.append(
                {
                    "size": size,
                    "entry": entry,
                    "pot": size * entry,
                    "payouts": payout_table(size=size, entry=entry),
                    "id": row.pk if row else None,
                    "taken": row.seats_taken if row else 0,
                    "seconds_left": _seconds_left(row) if row else None,
                    "entered": bool(row and row.pk in mine),
                }
            )
    return kinds


def _line(row: SitGo) -> dict[str, Any]:
    return {
        "id": row.pk,
        "size": row.size,
        "entry": row.entry,
        "pot": row.size * row.entry,
        "state": row.state,
        "state_label": str(row.get_state_display()),
        "reason_label": str(row.get_reason_display()) if row.reason else "",
        "taken": row.seats_taken,
    }


def sitgo_running() -> list[dict[str, Any]]:
    rows = SitGo.objects.filter(state=SitGo.State.RUNNING).order_by("-started_at")
    return [_line(r) for r in rows[:20]]


def sitgo_history(*, user: User, limit: int = 20) -> list[dict[str, Any]]:
    """The player's sit-and-gos, newest first, with their place and payout."""
    entries = (
        SitGoEntry.objects.filter(user=user)
        .select_related("sitgo")
        .order_by("-sitgo__created_at", "-pk")[:limit]
    )
    return [{**_line(e.sitgo), "place": e.place, "payout": e.payout} for e in entries]


def sitgo_page(*, row: SitGo, user: User) -> dict[str, Any]:
    """One sit-and-go: entrants, payout table, state, the player's current table
    and, once finished, every place and payout."""
    entries = list(
        SitGoEntry.objects.filter(sitgo=row)
        .select_related("user")
        .order_by("entered_at", "pk")
    )
    if row.state == SitGo.State.FINISHED:
        entries.sort(key=lambda e: e.place or row.size + 1)
    games = list(
        SitGoTable.objects.filter(sitgo=row)
        .exclude(state=SitGoTable.State.VOID)
        .prefetch_related("table__seats__user")
    )
    current = None
    for game in games:
        if game.state == SitGoTable.State.PLAYING and any(
            s.user_id == user.pk for s in game.table.seats.all()
        ):
            current = game.table_id
    return {
        **_line(row),
        "game": game_label(row),
        "payouts": payout_table(size=row.size, entry=row.entry),
        "seconds_left": _seconds_left(row) if row.state == SitGo.State.OPEN else None,
        "entered": any(e.user_id == user.pk for e in entries),
        "entrants": [
            {"name": e.user.username, "place": e.place, "payout": e.payout}
            for e in entries
        ],
        "tables": [
            {
                "id": g.table_id,
                "round": g.round,
                "final": g.round == 2 or row.size == 4,
                "state": g.state,
                "state_label": str(g.get_state_display()),
                "players": [s.user.username for s in g.table.seats.all() if s.user],
            }
            for g in games
        ],
        "current_table": current,
        "knocked_out": row.state == SitGo.State.RUNNING
        and any(e.user_id == user.pk and e.active_user_id is None for e in entries),
        "staff_cancelled": row.reason == SitGo.Reason.STAFF,
    }


def sitgo_of_table(table_id: int) -> EventLink | None:
    """The link back to the sit-and-go this table is a game of (the table page's
    "Back to the sit-and-go"), or None for a table of no sit-and-go."""
    sitgo_id = (
        SitGoTable.objects.filter(table_id=table_id)
        .values_list("sitgo_id", flat=True)
        .first()
    )
    if sitgo_id is None:
        return None
    return EventLink(
        url=reverse("sitgo", args=[sitgo_id]), label=_("Back to the sit-and-go")
    )


def sitgo_standing_of_table(table_id: int, user_id: int) -> EventStanding | None:
    """The player's standing in the sit-and-go this table is a game of (its result
    screen's line): the event's page and, once it has finished, their place and
    payout from the pot; None for a table of no sit-and-go or a player not in it."""
    game = (
        SitGoTable.objects.filter(table_id=table_id)
        .values_list("sitgo_id", "sitgo__state")
        .first()
    )
    if game is None:
        return None
    sitgo_id, state = game
    entry = SitGoEntry.objects.filter(sitgo_id=sitgo_id, user_id=user_id).first()
    if entry is None:
        return None
    url = reverse("sitgo", args=[sitgo_id])
    if state == SitGo.State.CANCELLED:
        return EventStanding(url=url, state="cancelled")
    if state != SitGo.State.FINISHED:
        return EventStanding(url=url, state="running")
    return EventStanding(
        url=url, state="finished", place=entry.place, coins=entry.payout
    )
