"""The Watch list: live online and stake tables anyone may watch, friends' tables
pinned first, then the strongest by their best player's rating in the variant.
Friend rooms and practice games never appear (they are their players' own)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from friends.selectors import WATCHABLE, friend_ids
from games.models import Seat, Table
from games.names import seat_display_name, variant_title
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Rating

LISTED = 50


@dataclass
class WatchRow:
    table: Table
    variant: str
    players: list[str] = field(default_factory=list)
    best: int = 0  # the best displayed rating at the table (0: nobody rated)
    friends: list[str] = field(default_factory=list)


def watch_list(*, user: Any) -> list[WatchRow]:
    tables = list(
        Table.objects.filter(status=Table.Status.PLAYING, mode__in=WATCHABLE).order_by(
            "-started_at", "-pk"
        )[:500]
    )
    if not tables:
        return []
    rows = {t.pk: WatchRow(table=t, variant=variant_title(t.variant)) for t in tables}
    seats = Seat.objects.filter(table_id__in=rows).select_related("user")
    people: dict[int, set[int]] = {}
    variants = {t.pk: t.variant for t in tables}
    for seat in seats.order_by("table_id", "position"):
        rows[seat.table_id].players.append(seat_display_name(seat))
        if seat.user_id is not None:
            people.setdefault(seat.table_id, set()).add(seat.user_id)
    everyone = {uid for ids in people.values() for uid in ids}
    ratings = {
        (r.user_id, r.variant): rating_points(r.mu)
        for r in Rating.objects.filter(user_id__in=everyone)
    }
    mine = (
        set(friend_ids(user.pk)) if getattr(user, "is_authenticated", False) else set()
    )
    names = {
        s.user_id: s.user.get_username()
        for s in seats
        if s.user_id is not None and s.user is not None
    }
    for table_id, ids in people.items():
        row = rows[table_id]
        row.best = max(
            (ratings.get((uid, variants[table_id]), 0) for uid in ids), default=0
        )
        row.friends = sorted(names[uid] for uid in ids & mine)
    ordered = sorted(rows.values(), key=lambda r: (not r.friends, -r.best, -r.table.pk))
    return ordered[:LISTED]
