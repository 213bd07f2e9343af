"""League writes: a finished table's points, group places and operators' corrections.

Lock order (everywhere): week rows (one, shared, for point writers and corrections;
the closing week then the open weeks after it, in order, exclusive, for the
rollover), then :class:`~leagues.models.Player` rows in primary-key order, then group
rows in division order. See ``docs/league.md``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils.translation import gettext as _

from games import engine
from games.models import Seat, Table
from leagues import conf
from leagues.errors import LeagueError
from leagues.models import (
    Correction,
    Division,
    Group,
    Membership,
    Player,
    PointEntry,
    Week,
)
from leagues.points import seat_points, seat_weight, table_shape
from leagues.stakes import stake_of
from leagues.weeks import WEEK, week_ensure, week_start

logger = logging.getLogger(__name__)

COUNTED_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
DIVISION_ORDER = {d: i for i, d in enumerate(Division.values)}


@dataclass(frozen=True)
class HumanSeat:
    position: int
    user_id: int
    place: int


def week_share_lock(week: Week) -> str:
    """Lock ``week`` against the rollover (shared) and return its current status."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT status FROM {Week._meta.db_table} WHERE id = %s FOR SHARE",  # noqa: S608
                [week.pk],
            )
            return str(cursor.fetchone()[0])
    return str(Week.objects.filter(pk=week.pk).values_list("status", flat=True)[0])


def players_lock(*, user_ids: list[int]) -> dict[int, Player]:
    """Each user's league row, created in Bronze if new, locked in primary-key order."""
    existing = set(
        Player.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
    )
    missing = [u for u in user_ids if u not in existing]
    if missing:
        Player.objects.bulk_create(
            [Player(user_id=u) for u in missing], ignore_conflicts=True
        )
    rows = Player.objects.filter(user_id__in=user_ids).order_by("pk")
    return {p.user_id: p for p in rows.select_for_update()}


def _pair_counts_over(*, user_ids: list[int], day: date) -> set[int]:
    """Users who already counted the daily limit of tables with another seat here."""
    limit = conf.pair_daily_limit()
    over: set[int] = set()
    for i, first in enumerate(user_ids):
        for second in user_ids[i + 1 :]:
            together = PointEntry.objects.filter(
                user_id=first,
                day=day,
                counted=True,
                table_id__in=PointEntry.objects.filter(
                    user_id=second, day=day, counted=True
                ).values("table_id"),
            ).count()
            if together >= limit:
                over |= {first, second}
    return over


def _group_place(*, week: Week, division: str) -> Group:
    """The group a new arrival joins: the last one of the division, or a new one."""
    capacity = conf.group_size()
    while True:
        last = (
            Group.objects.select_for_update()
            .filter(week=week, division=division)
            .order_by("-number")
            .first()
        )
        if last is not None and last.size < capacity:
            Group.objects.filter(pk=last.pk).update(size=F("size") + 1)
            return last
        try:
            with transaction.atomic():
                return Group.objects.create(
                    week=week,
                    division=division,
                    number=(last.number + 1) if last else 1,
                    size=1,
                )
        except IntegrityError:
            continue


def _membership_add(
    *, week: Week, player: Player, points: Decimal, finished_at: datetime
) -> None:
    updates: dict[str, object] = {
        "points": F("points") + points,
        "tables": F("tables") + 1,
    }
    if points > 0:
        updates["reached_at"] = Greatest(F("reached_at"), finished_at)
    if Membership.objects.filter(week=week, user_id=player.user_id).update(**updates):
        return
    group = _group_place(week=week, division=player.division)
    Membership.objects.create(
        week=week,
        group=group,
        user_id=player.user_id,
        division=player.division,
        points=points,
        tables=1,
        joined_at=finished_at,
        reached_at=finished_at,
    )


def _humans(table: Table) -> list[HumanSeat]:
    seats = Seat.objects.filter(
        table=table, user__isnull=False, bot_level="", unpaid=""
    )
    return [
        HumanSeat(position=s.position, user_id=s.user_id, place=s.place)
        for s in seats.order_by("position")
        if s.place and s.user_id is not None
    ]


@transaction.atomic
def table_points_record(*, table_id: int) -> list[PointEntry]:
    """Record the league points of a finished online or stake table, once.

    Does nothing for other modes, unfinished tables, a table already recorded, or a
    table whose week is already closed (the rollover recorded every table it found
    before closing). Returns the entries written.
    """
    table = Table.objects.filter(pk=table_id).first()
    if (
        table is None
        or table.mode not in COUNTED_MODES
        or table.status != Table.Status.FINISHED
        or table.finished_at is None
    ):
        return []
    humans = _humans(table)
    if not humans or PointEntry.objects.filter(table_id=table_id).exists():
        return []
    week = week_ensure(start=week_start(table.finished_at))
    while week_share_lock(week) == Week.Status.CLOSED:
        # The finish committed after its week's close looked for unrecorded tables
        # (later than the grace): the closed week is final, so the next open one
        # counts it rather than losing it.
        logger.warning("table %s finished in closed week %s", table_id, week.key)
        week = week_ensure(start=week.start + WEEK)
    if PointEntry.objects.filter(table_id=table_id).exists():
        return []  # recorded by the close this step waited for
    return _entries_write(table=table, week=week, humans=humans)


def _entries_write(
    *, table: Table, week: Week, humans: list[HumanSeat]
) -> list[PointEntry]:
    assert table.finished_at is not None
    finished_at = table.finished_at
    day = finished_at.astimezone(UTC).date()
    # A table counted in a later week than its own joins that week at its start.
    moment = max(finished_at, week.start)
    user_ids = [h.user_id for h in humans]
    players = players_lock(user_ids=sorted(user_ids))
    over = _pair_counts_over(user_ids=user_ids, day=day)
    opts = engine.Options.from_dict(table.options)
    shape = table_shape(seats=opts.seats, partnership=opts.partnership)
    simulated = Seat.objects.filter(table=table, simulated=True).exists()
    weight = seat_weight(simulated=simulated)
    stake = stake_of(table) if table.mode == Table.Mode.STAKE else None
    entries = [
        PointEntry(
            table_id=table.pk,
            position=h.position,
            week=week,
            user_id=h.user_id,
            mode=table.mode,
            place=h.place,
            weight=weight,
            points=seat_points(shape=shape, place=h.place, weight=weight, stake=stake),
            counted=h.user_id not in over,
            day=day,
            finished_at=finished_at,
        )
        for h in humans
    ]
    try:
        with transaction.atomic():
            PointEntry.objects.bulk_create(entries)
    except IntegrityError:
        return []  # recorded concurrently by another delivery of the same table
    # Each entry was built from its human seat, whose player id is never None.
    counted = sorted(
        ((e, h.user_id) for e, h in zip(entries, humans, strict=True) if e.counted),
        key=lambda pair: (DIVISION_ORDER[players[pair[1]].division], pair[1]),
    )
    for entry, user_id in counted:
        _membership_add(
            week=week,
            player=players[user_id],
            points=entry.points,
            finished_at=moment,
        )
    return entries


def places_follow_divisions(*, week: Week) -> int:
    """Move the places of ``week`` taken before the previous week closed (in the
    division its player held then) to the groups of the division the close gave
    them, filled in order of arrival as new arrivals are; return how many moved.

    The caller holds ``week``'s row ``FOR UPDATE``, so no point writer of the week
    places anyone meanwhile. Set-based: after a downtime the week may already hold
    most of the league. The old groups keep their other players and their numbers.
    """
    stale = list(
        Membership.objects.filter(week=week, user__league__isnull=False)
        .exclude(division=F("user__league__division"))
        .order_by("joined_at", "pk")
        .values_list("pk", "group_id", "user__league__division")
    )
    if not stale:
        return 0
    capacity = conf.group_size()
    last: dict[str, Group] = {}
    for group in Group.objects.filter(week=week).order_by("division", "number"):
        last[group.division] = group  # each division's highest number
    target: dict[int, Group] = {}
    for pk, _old, division in stale:
        filling = last.get(division)
        if filling is None or filling.size >= capacity:
            number = filling.number + 1 if filling else 1
            filling = Group.objects.create(
                week=week, division=division, number=number, size=0
            )
            last[division] = filling
        filling.size += 1
        target[pk] = filling
    rows = [
        Membership(id=pk, group=target[pk], division=target[pk].division)
        for pk, _old, _division in stale
    ]
    Membership.objects.bulk_update(rows, ["group", "division"], batch_size=1000)
    touched = {old for _pk, old, _division in stale}
    touched |= {g.pk for g in target.values()}
    counts = (
        Membership.objects.filter(group=OuterRef("pk"))
        .order_by()
        .values("group")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Group.objects.filter(pk__in=touched).update(size=Coalesce(Subquery(counts), 0))
    return len(stale)


@transaction.atomic
def points_remove(*, membership_id: int, reason: str, operator_id: int) -> Correction:
    """Remove all of a player's points for an open week, logged with ``reason``."""
    reason = (reason or "").strip()
    if not reason:
        raise LeagueError("no_reason", _("Give a reason for the correction."))
    membership = (
        Membership.objects.select_related("week").filter(pk=membership_id).first()
    )
    if membership is None:
        raise LeagueError("no_membership", _("That league place does not exist."))
    if week_share_lock(membership.week) == Week.Status.CLOSED:
        raise LeagueError(
            "week_closed", _("That week is closed; its results are final.")
        )
    if membership.user_id is not None:
        players_lock(user_ids=[membership.user_id])
    membership = Membership.objects.select_for_update().get(pk=membership_id)
    if membership.points <= 0:
        raise LeagueError(
            "no_points", _("That player has no points to remove this week.")
        )
    correction = Correction.objects.create(
        membership=membership,
        points_removed=membership.points,
        reason=reason,
        operator_id=operator_id,
    )
    Membership.objects.filter(pk=membership.pk).update(points=0)
    return correction
