"""League reads: my group's live standings, my past weeks, each division's top."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from games.models import Table
from leagues import conf
from leagues.models import Division, Membership, Player, PointEntry, Week
from leagues.ranking import Standing, standing_order, zone_sizes
from leagues.weeks import week_end, week_start

UP, DOWN, SAFE, NONE = "up", "down", "", "none"


@dataclass(frozen=True)
class Row:
    rank: int | None
    user_id: int | None
    name: str
    points: Decimal
    tables: int
    zone: str  # "up", "down", "" (stays) or "none" (no points: no place)


@dataclass(frozen=True)
class GroupView:
    week_start: datetime
    week_end: datetime
    division: str
    membership: Membership | None
    rows: list[Row]
    up: int
    down: int


def player_division(*, user_id: int) -> str:
    division = (
        Player.objects.filter(user_id=user_id)
        .values_list("division", flat=True)
        .first()
    )
    return str(division or Division.BRONZE)


def _rows(members: list[Membership], division: str) -> tuple[list[Row], int, int]:
    """Live ranks and zones, by the same order and zone sizes as the week's close."""
    standing = {
        m.pk: Standing(
            id=m.pk,
            points=m.points,
            reached_at=m.reached_at,
            joined_at=m.joined_at,
            eligible=m.user_id is not None,
        )
        for m in members
    }
    by_id = {m.pk: m for m in members}
    ordered = standing_order(list(standing.values()))
    ranked = [s for s in ordered if s.eligible and s.points > 0]
    up, down = zone_sizes(ranked=len(ranked), zone=conf.zone(division))
    rows = []
    for i, s in enumerate(ranked):
        m = by_id[s.id]
        zone = UP if i < up else DOWN if i >= len(ranked) - down else SAFE
        rows.append(Row(i + 1, m.user_id, _name(m), m.points, m.tables, zone))
    for s in ordered:
        if s not in ranked:
            m = by_id[s.id]
            rows.append(Row(None, m.user_id, _name(m), m.points, m.tables, NONE))
    return rows, up, down


def _name(m: Membership) -> str:
    return m.user.username if m.user is not None else "—"


def group_view(*, user_id: int, now: datetime | None = None) -> GroupView:
    """The current week for ``user_id``: their group's standings (three queries)."""
    now = now or timezone.now()
    start = week_start(now)
    membership = (
        Membership.objects.select_related("week", "group")
        .filter(user_id=user_id, week__start=start)
        .first()
    )
    if membership is None:
        return GroupView(
            start, week_end(start), player_division(user_id=user_id), None, [], 0, 0
        )
    members = list(
        Membership.objects.filter(group_id=membership.group_id).select_related("user")
    )
    rows, up, down = _rows(members, membership.division)
    return GroupView(
        start, week_end(start), membership.division, membership, rows, up, down
    )


@dataclass(frozen=True)
class WeekTable:
    """One of a player's league tables this week: what its seat gave them."""

    entry: PointEntry
    table: Table | None  # None for a table deleted since


def my_week_tables(*, user_id: int, now: datetime | None = None) -> list[WeekTable]:
    """The player's recorded tables of the current week, newest first, counted or not
    (two queries)."""
    start = week_start(now or timezone.now())
    entries = list(
        PointEntry.objects.filter(user_id=user_id, week__start=start).order_by(
            "-finished_at", "-table_id"
        )
    )
    tables = Table.objects.in_bulk([e.table_id for e in entries])
    return [WeekTable(entry=e, table=tables.get(e.table_id)) for e in entries]


def past_weeks(*, user_id: int, limit: int = 12) -> list[Membership]:
    """The player's closed weeks, newest first."""
    return list(
        Membership.objects.filter(user_id=user_id, week__status=Week.Status.CLOSED)
        .select_related("week")
        .order_by("-week__start")[:limit]
    )


def division_tops(
    *, now: datetime | None = None, limit: int = 5
) -> dict[str, list[Membership]]:
    """This week's leaders of each division (one query per division)."""
    start = week_start(now or timezone.now())
    return {
        division: list(
            Membership.objects.filter(
                week__start=start,
                division=division,
                points__gt=0,
                user__isnull=False,
            )
            .select_related("user")
            .order_by("-points", "reached_at", "joined_at", "id")[:limit]
        )
        for division in Division.values
    }
