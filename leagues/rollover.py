"""The weekly rollover: close every week that ended, in order, then pay its rewards.

``week_close`` runs in one transaction holding the week row ``FOR UPDATE`` (point
writers hold it ``FOR SHARE``): a second rollover, concurrent or later, waits and
then finds the week closed. Before ranking, it records any finished table of the week
whose points were not recorded yet (a finish step that failed or has not run), so a
table whose finish committed before the close looked counts once, in its own week; a
finish committed later counts in the next open week (``table_points_record``).
Just before moving divisions it locks the open weeks after it, so the new week's
point writers wait only for the end of the close and never hold a player row it
moves; the places they took before in the old division follow the move. Rewards are
paid after the close in batches, each reward idempotent by its ledger key, and the
week is marked paid when all are in; a rollover that stopped half-way resumes there.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from economy.league_payouts import league_rewards_pay
from games.models import Table
from leagues import conf
from leagues.models import Division, Membership, Player, PointEntry, Week
from leagues.ranking import (
    DEMOTED,
    PROMOTED,
    STAYED,
    Outcome,
    Standing,
    group_outcomes,
)
from leagues.services import (
    COUNTED_MODES,
    places_follow_divisions,
    table_points_record,
)
from leagues.weeks import WEEK, week_ensure, week_start

logger = logging.getLogger(__name__)

PAY_BATCH = 1000
DIVISIONS = list(Division.values)


def _tables_unrecorded(week: Week) -> list[int]:
    recorded = PointEntry.objects.filter(table_id=OuterRef("pk"))
    return list(
        Table.objects.filter(
            mode__in=COUNTED_MODES,
            status=Table.Status.FINISHED,
            finished_at__gte=week.start,
            finished_at__lt=week.start + WEEK,
        )
        .filter(~Exists(recorded))
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True)
class Place:
    """Who holds a membership, and in which division: for the moves."""

    user_id: int | None
    division: str


def _standings(
    week: Week,
) -> tuple[dict[tuple[int, str], list[Standing]], dict[int, Place]]:
    """Each group's standings, and each membership's holder."""
    groups: dict[tuple[int, str], list[Standing]] = defaultdict(list)
    places: dict[int, Place] = {}
    members = Membership.objects.filter(week=week)
    # Few accounts are closed: one small query rather than a join of every row.
    inactive = set(
        get_user_model()
        .objects.filter(is_active=False, pk__in=members.values("user_id"))
        .values_list("pk", flat=True)
    )
    rows = members.values_list(
        "id", "group_id", "division", "user_id", "points", "reached_at", "joined_at"
    )
    for pk, group_id, division, user_id, points, reached, joined in rows.iterator(
        chunk_size=10_000
    ):
        groups[(group_id, division)].append(
            Standing(
                id=pk,
                points=points,
                reached_at=reached,
                joined_at=joined,
                eligible=user_id is not None and user_id not in inactive,
            )
        )
        places[pk] = Place(user_id, division)
    return groups, places


def _outcomes_write(outcomes: dict[int, Outcome]) -> None:
    items = sorted(outcomes.items())
    if connection.vendor != "postgresql":
        rows = [
            Membership(id=pk, rank=o.rank, result=o.result, reward=o.reward)
            for pk, o in items
        ]
        Membership.objects.bulk_update(rows, ["rank", "result", "reward"], 500)
        return
    table = Membership._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS m SET rank = v.rank, result = v.result, "  # noqa: S608
            "reward = v.reward FROM unnest(%s::bigint[], %s::integer[], "
            "%s::varchar[], %s::integer[]) AS v(id, rank, result, reward) "
            "WHERE m.id = v.id",
            [
                [pk for pk, _ in items],
                [o.rank for _, o in items],
                [o.result for _, o in items],
                [o.reward for _, o in items],
            ],
        )


def _divisions_move(places: dict[int, Place], outcomes: dict[int, Outcome]) -> None:
    moves: dict[str, list[int]] = defaultdict(list)
    for pk, place in places.items():
        result = outcomes[pk].result
        step = 1 if result == PROMOTED else -1 if result == DEMOTED else 0
        if step and place.user_id is not None:
            # Clamped as the PostgreSQL close clamps: zones that promote from the
            # top division or demote from the bottom one move nobody past them.
            at = DIVISIONS.index(place.division) + step
            target = DIVISIONS[min(max(at, 0), len(DIVISIONS) - 1)]
            if target != place.division:
                moves[target].append(place.user_id)
    table = Player._meta.db_table
    for target, user_ids in sorted(moves.items()):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {table} SET division = %s "  # noqa: S608
                    "WHERE user_id = ANY(%s::bigint[])",
                    [target, user_ids],
                )
        else:
            Player.objects.filter(user_id__in=user_ids).update(division=target)


def _outcomes_write_sql(week: Week) -> int:
    """Rank, zone and reward every group of ``week`` in two statements (PostgreSQL):
    the order, zones and rewards of ``leagues.ranking.group_outcomes``, by a window
    over each group, without reading the places into Python. Returns the places.
    """
    zones = {d: conf.zone(d) for d in DIVISIONS}
    rewards = [
        (d, rank, coins)
        for d, z in zones.items()
        for rank, coins in enumerate(z.rewards, start=1)
    ]
    members = Membership._meta.db_table
    users = get_user_model()._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH zone AS (
                SELECT * FROM unnest(%s::varchar[], %s::integer[], %s::integer[])
                    AS z(division, up, down)
            ), prize AS (
                SELECT * FROM unnest(%s::varchar[], %s::integer[], %s::integer[])
                    AS c(division, rank, coins)
            ), ranked AS (
                SELECT m.id, m.division,
                    row_number() OVER (
                        PARTITION BY m.group_id
                        ORDER BY m.points DESC, m.reached_at, m.joined_at, m.id
                    ) AS rank,
                    count(*) OVER (PARTITION BY m.group_id) AS n
                FROM {members} AS m JOIN {users} AS u ON u.id = m.user_id
                WHERE m.week_id = %s AND m.points > 0 AND u.is_active
            ), sized AS (
                SELECT r.*, LEAST(z.up, r.n) AS up,
                    LEAST(z.down, r.n - LEAST(z.up, r.n)) AS down
                FROM ranked AS r JOIN zone AS z ON z.division = r.division
            )
            UPDATE {members} AS m SET rank = s.rank,
                result = CASE WHEN s.rank <= s.up THEN %s
                    WHEN s.rank > s.n - s.down THEN %s ELSE %s END,
                reward = COALESCE(c.coins, 0)
            FROM sized AS s
                LEFT JOIN prize AS c ON c.division = s.division AND c.rank = s.rank
            WHERE m.id = s.id
            """,  # noqa: S608
            [
                list(zones),
                [z.up for z in zones.values()],
                [z.down for z in zones.values()],
                [d for d, _, _ in rewards],
                [rank for _, rank, _ in rewards],
                [coins for _, _, coins in rewards],
                week.pk,
                PROMOTED,
                DEMOTED,
                STAYED,
            ],
        )
        ranked = cursor.rowcount
        # No points, or a closed account: no place, no move, no reward.
        cursor.execute(
            f"UPDATE {members} SET rank = NULL, result = %s, reward = 0 "  # noqa: S608
            "WHERE week_id = %s AND result = ''",
            [STAYED, week.pk],
        )
        return int(ranked + cursor.rowcount)


def _divisions_move_sql(week: Week) -> None:
    """Move every promoted and demoted player of ``week`` one division, in one
    statement (PostgreSQL); never past Bronze or Diamond."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Player._meta.db_table} AS p SET division = (%s::varchar[])["  # noqa: S608
            "LEAST(GREATEST(array_position(%s::varchar[], m.division) + "
            "CASE WHEN m.result = %s THEN 1 ELSE -1 END, 1), %s)] "
            f"FROM {Membership._meta.db_table} AS m "
            "WHERE m.week_id = %s AND m.result IN (%s, %s) AND p.user_id = m.user_id",
            [
                DIVISIONS,
                DIVISIONS,
                PROMOTED,
                len(DIVISIONS),
                week.pk,
                PROMOTED,
                DEMOTED,
            ],
        )


def week_close(*, week_id: int) -> bool:
    """Close one ended week: ranks, zones, divisions. False if it was closed already.

    The tables whose points are missing are recorded first, each in its own short
    transaction, so the close itself holds no player row of them.
    """
    week = Week.objects.get(pk=week_id)
    if week.status == Week.Status.CLOSED:
        return False
    for table_id in _tables_unrecorded(week):
        table_points_record(table_id=table_id)
    return _week_close_locked(week_id=week_id)


def _weeks_after_lock(week: Week) -> Week:
    """Lock the open weeks after ``week`` (the next one created if missing), so no
    point writer of theirs holds a player row while the close moves divisions;
    return the next week."""
    following = week_ensure(start=week.start + WEEK)
    list(
        Week.objects.select_for_update()
        .filter(start__gt=week.start, status=Week.Status.OPEN)
        .order_by("start")
        .values_list("pk")
    )
    return following


@transaction.atomic
def _week_close_locked(*, week_id: int) -> bool:
    week = Week.objects.select_for_update().get(pk=week_id)
    if week.status == Week.Status.CLOSED:
        return False
    following: Week | None = None
    late = _tables_unrecorded(week)
    if late:  # committed since the first look: locks on later weeks come first
        following = _weeks_after_lock(week)
        for table_id in late:
            table_points_record(table_id=table_id)
    if connection.vendor == "postgresql":
        count = _outcomes_write_sql(week)
        following = following or _weeks_after_lock(week)
        _divisions_move_sql(week)
    else:
        outcomes: dict[int, Outcome] = {}
        groups, places = _standings(week)
        for (_, division), rows in groups.items():
            outcomes.update(group_outcomes(rows, conf.zone(division)))
        _outcomes_write(outcomes)
        following = following or _weeks_after_lock(week)
        _divisions_move(places, outcomes)
        count = len(outcomes)
    moved = places_follow_divisions(week=following)
    week.status = Week.Status.CLOSED
    week.closed_at = timezone.now()
    week.save(update_fields=["status", "closed_at"])
    logger.info(
        "league week %s closed: %d places; %d places of the next week moved",
        week.key,
        count,
        moved,
    )
    return True


def week_rewards_pay(*, week_id: int) -> int:
    """Pay a closed week's rewards in batches; mark it paid. Returns rewards new."""
    week = Week.objects.get(pk=week_id)
    if week.status != Week.Status.CLOSED or week.paid_at is not None:
        return 0
    owed = list(
        Membership.objects.filter(week=week, reward__gt=0, user__isnull=False)
        .order_by("user_id")
        .values_list("user_id", "reward")
    )
    paid = 0
    for i in range(0, len(owed), PAY_BATCH):
        paid += league_rewards_pay(week=week.key, rewards=dict(owed[i : i + PAY_BATCH]))
    Week.objects.filter(pk=week.pk, paid_at__isnull=True).update(paid_at=timezone.now())
    return paid


def _week_ended_oldest(now: datetime) -> Week | None:
    """The oldest open week that ended at least the grace before ``now``."""
    cutoff = now - timedelta(seconds=conf.close_grace_seconds())
    return (
        Week.objects.filter(status=Week.Status.OPEN, start__lte=cutoff - WEEK)
        .order_by("start")
        .first()
    )


def weeks_rollover(*, now: datetime | None = None) -> list[str]:
    """Close every ended week in order and pay every closed week not yet paid.

    Safe to run at any time, twice or concurrently. Returns the weeks it closed.
    """
    now = now or timezone.now()
    week_ensure(start=week_start(now))
    closed = []
    # Asked again after each close: closing a week creates the next one if missing.
    while (week := _week_ended_oldest(now)) is not None:
        if week_close(week_id=week.pk):
            closed.append(week.key)
    for week in Week.objects.filter(status=Week.Status.CLOSED, paid_at__isnull=True):
        week_rewards_pay(week_id=week.pk)
    return closed


def rollover_wait(*, now: datetime | None = None) -> float:
    """Seconds until the week that just ended may close (0 when none is waiting)."""
    now = now or timezone.now()
    end = week_start(now)
    remaining = (
        end + timedelta(seconds=conf.close_grace_seconds()) - now
    ).total_seconds()
    waiting = Week.objects.filter(status=Week.Status.OPEN, start=end - WEEK).exists()
    return remaining if remaining > 0 and waiting else 0.0
