"""Head to head: how a player fared against each other person they sat with.

Counted over finished tables with people on both sides (online, stake and friend
rooms; practice tables seat only computers besides their player). At each table the
better finishing place wins; the same place (a shared place, partners) is neither.
Partners never count against each other.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games.models import Seat, Table

# The tables a player's recent opponents are found in.
RECENT_TABLES = 30


@dataclass(frozen=True)
class Record:
    won: int = 0
    lost: int = 0
    even: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.even


def _finished_with(user_id: int) -> Any:
    return Seat.objects.filter(
        user_id=user_id, table__status=Table.Status.FINISHED
    ).values_list("table_id", flat=True)


def head_to_head(*, user_id: int, other_ids: list[int]) -> dict[int, Record]:
    """``user``'s record against each of ``other_ids`` (absent: never met)."""
    if not other_ids:
        return {}
    tables = _finished_with(user_id)
    seats = Seat.objects.filter(
        table_id__in=tables, user_id__in=[user_id, *other_ids]
    ).values_list("table_id", "user_id", "team", "place")
    by_table: dict[int, dict[int, tuple[int | None, int | None]]] = defaultdict(dict)
    for table_id, uid, team, place in seats:
        by_table[table_id][uid] = (team, place)
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for at in by_table.values():
        mine = at.get(user_id)
        if mine is None or mine[1] is None:
            continue
        for other, (team, place) in at.items():
            if other == user_id or place is None:
                continue
            if team is not None and team == mine[0]:
                continue  # partners
            slot = 0 if mine[1] < place else 1 if mine[1] > place else 2
            counts[other][slot] += 1
    return {uid: Record(*c) for uid, c in counts.items()}


def recent_opponents(*, user_id: int, limit: int = 10) -> list[int]:
    """The people ``user`` most recently finished a table with, newest first."""
    tables = list(
        Table.objects.filter(pk__in=_finished_with(user_id))
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:RECENT_TABLES]
    )
    order = {pk: i for i, pk in enumerate(tables)}
    seen: dict[int, int] = {}
    for table_id, uid in (
        Seat.objects.filter(table_id__in=tables, user__isnull=False)
        .exclude(user_id=user_id)
        .values_list("table_id", "user_id")
    ):
        rank = order[table_id]
        if uid not in seen or rank < seen[uid]:
            seen[uid] = rank
    return sorted(seen, key=seen.__getitem__)[:limit]
