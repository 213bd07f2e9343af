"""The weekly rollover: close every week that ended, in order, then pay its rewards.

``week_close`` runs in one transaction holding the week row ``FOR UPDATE`` (point
writers hold it ``FOR SHARE``): a second rollover, concurrent or later, waits and
then finds the week closed. Before ranking, it records any finished table of the week
whose points were not recorded yet (a finish receiver that failed or has not run),
so a table finishing during the rollover counts once, in its own week. Rewards are
paid after the close in batches, each reward idempotent by its ledger key, and the
week is marked paid when all are in; a rollover that stopped half-way resumes there.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from economy.league_payouts import league_rewards_pay
from games.models import Table
from leagues import conf
from leagues.models import Division, Membership, Player, PointEntry, Week
from leagues.ranking import DEMOTED, PROMOTED, Outcome, Standing, group_outcomes
from leagues.services import COUNTED_MODES, table_points_record
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


def _standings(week: Week) -> dict[tuple[int, str], list[Standing]]:
    groups: dict[tuple[int, str], list[Standing]] = defaultdict(list)
    rows = Membership.objects.filter(week=week).values_list(
        "id",
        "group_id",
        "division",
        "user_id",
        "user__is_active",
        "points",
        "reached_at",
        "joined_at",
    )
    for pk, group_id, division, user_id, active, points, reached, joined in rows:
        groups[(group_id, division)].append(
            Standing(
                id=pk,
                points=points,
                reached_at=reached,
                joined_at=joined,
                eligible=user_id is not None and bool(active),
            )
        )
    return groups


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


def _divisions_move(week: Week, outcomes: dict[int, Outcome]) -> None:
    moves: dict[tuple[str, str], list[int]] = defaultdict(list)
    rows = Membership.objects.filter(week=week, user__isnull=False).values_list(
        "id", "user_id", "division"
    )
    for pk, user_id, division in rows:
        result = outcomes[pk].result
        step = 1 if result == PROMOTED else -1 if result == DEMOTED else 0
        if step:
            target = DIVISIONS[DIVISIONS.index(division) + step]
            moves[(division, target)].append(user_id)
    for (_, target), user_ids in sorted(moves.items()):
        Player.objects.filter(user_id__in=user_ids).update(division=target)


@transaction.atomic
def week_close(*, week_id: int) -> bool:
    """Close one ended week: ranks, zones, divisions. False if it was closed already."""
    week = Week.objects.select_for_update().get(pk=week_id)
    if week.status == Week.Status.CLOSED:
        return False
    for table_id in _tables_unrecorded(week):
        table_points_record(table_id=table_id)
    outcomes: dict[int, Outcome] = {}
    for (_, division), rows in _standings(week).items():
        outcomes.update(group_outcomes(rows, conf.zone(division)))
    _outcomes_write(outcomes)
    _divisions_move(week, outcomes)
    week.status = Week.Status.CLOSED
    week.closed_at = timezone.now()
    week.save(update_fields=["status", "closed_at"])
    logger.info("league week %s closed: %d places", week.key, len(outcomes))
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


def _weeks_ended(now: datetime) -> Iterable[Week]:
    cutoff = now - timedelta(seconds=conf.close_grace_seconds())
    return Week.objects.filter(
        status=Week.Status.OPEN, start__lte=cutoff - WEEK
    ).order_by("start")


def weeks_rollover(*, now: datetime | None = None) -> list[str]:
    """Close every ended week in order and pay every closed week not yet paid.

    Safe to run at any time, twice or concurrently. Returns the weeks it closed.
    """
    now = now or timezone.now()
    week_ensure(start=week_start(now))
    closed = [w.key for w in _weeks_ended(now) if week_close(week_id=w.pk)]
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
