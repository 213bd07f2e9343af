"""Matchmaking writes: start, keep and cancel a search; run a pool's wave.

A wave claims its pool (a lease on the ``PoolWave`` row, taken under its row lock
with ``skip_locked``: a second wave of the same pool returns at once), reads every
waiting search once, groups them all (``matchmaking.pools.waves``: closest ratings
first) and seats every group, the backfilled lone players last, in batches of
``MATCHMAKING_SEAT_BATCH_TABLES`` tables. Each batch is one short transaction: it
renews the lease (a wave that lost it stops), locks its searches, so a search
cancelled meanwhile keeps its group from sitting and a cancel waits for the batch
and then finds the player seated, seats its groups through one ``games`` service
call (``tables_seated_create``) and marks the searches seated with one guarded
update. Short batches keep the write lock brief (the whole database on SQLite).
The batch's players hear of their table after its commit; the lobby counts go out
once the wave ends.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import (
    DateTimeField,
    Exists,
    F,
    FloatField,
    Func,
    OuterRef,
    Subquery,
    Value,
)
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import user_is_bot
from games.models import Seat
from matchmaking.commitments import committed_elsewhere, player_lock
from matchmaking.errors import MatchError
from matchmaking.pools import notify
from matchmaking.pools.conduct import free_to_sit_check
from matchmaking.pools.config import (
    DEFAULT_SPEED,
    Pool,
    Speed,
    gap_setting,
    pool_get,
    pools_all,
    speed_get,
    speeds_all,
)
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Block, PoolWave, Rating, Search, SeekPlayer
from matchmaking.pools.seating import Member, groups_seat
from matchmaking.pools.selectors import live_table_of, pool_counts
from matchmaking.pools.waves import Waiting, wave_groups

logger = logging.getLogger(__name__)

# The Celery task (``matchmaking.pools.tasks``) that runs one pool's wave, queued
# by name so that the services do not import the task shells built over them.
POOL_WAVE_TASK = "matchmaking.pool_wave"


def rating_for(user_id: int, variant: str) -> float:
    """The displayed rating the player queues with in ``variant``."""
    mu = (
        Rating.objects.filter(user_id=user_id, variant=variant)
        .values_list("mu", flat=True)
        .first()
    )
    return float(rating_points(mu)) if mu is not None else float(rating_points(25.0))


def bot_refuse(*, user_id: int) -> None:
    """Bot accounts play through the API, never from the lobby."""
    if user_is_bot(user_id=user_id):
        raise MatchError("bot_account", _("Bot accounts play through the API."))


def speed_check(speed_key: object) -> Speed:
    """The speed named ``speed_key``; refused for anything else."""
    speed = speed_get(speed_key)
    if speed is None:
        raise MatchError("unknown_speed", _("Choose a fast or a slow turn clock."))
    return speed


def seek_held_refuse(*, user_id: int) -> None:
    """Refused while the player holds a place at an open table of the lobby."""
    if SeekPlayer.objects.filter(user_id=user_id, active=True).exists():
        raise MatchError(
            "in_seek", _("You are at an open table in the lobby: leave it first.")
        )


@transaction.atomic
def search_start(
    *, user_id: int, pool_key: object, speed: object = DEFAULT_SPEED
) -> Search:
    """Put the player in a pool at a speed; refused for bot accounts and while
    searching, at an open table of the lobby, seated, in cooldown or committed
    elsewhere (a sit-and-go: ``matchmaking.commitments``, whose lock the search
    takes first, so a commitment racing it by the same player is seen)."""
    pool = pool_get(pool_key)
    if pool is None:
        raise MatchError("unknown_pool", _("There is no such game in the lobby."))
    chosen = speed_check(speed)
    bot_refuse(user_id=user_id)
    player_lock(user_id=user_id)
    free_to_sit_check(user_id=user_id)
    if reason := committed_elsewhere(user_id):
        raise MatchError("busy_elsewhere", reason)
    if Search.objects.filter(user_id=user_id, status=Search.Status.WAITING).exists():
        raise MatchError("already_searching", _("You are already looking for a table."))
    seek_held_refuse(user_id=user_id)
    now = timezone.now()
    try:
        with transaction.atomic():
            search = Search.objects.create(
                user_id=user_id,
                pool=pool.key,
                speed=chosen.key,
                rating=rating_for(user_id, pool.variant),
                started_at=now,
                seen_at=now,
            )
    except IntegrityError:
        raise MatchError(
            "already_searching", _("You are already looking for a table.")
        ) from None
    waiting = Search.objects.filter(
        pool=pool.key, speed=chosen.key, status=Search.Status.WAITING
    )
    if waiting.count() >= 2 * pool.seats:
        transaction.on_commit(lambda: _wave_soon(pool.key))
    transaction.on_commit(_counts_send)
    return search


@transaction.atomic
def search_cancel(*, user_id: int) -> None:
    """Leave the pool; refused when there is no search or the player was seated."""
    search = (
        Search.objects.select_for_update()
        .filter(user_id=user_id, status=Search.Status.WAITING)
        .first()
    )
    if search is None:
        if live_table_of(user_id=user_id) is not None:
            raise MatchError("seated", _("You have been seated already."))
        raise MatchError("not_searching", _("You are not looking for a table."))
    search.status = Search.Status.CANCELLED
    search.ended_at = timezone.now()
    search.save(update_fields=["status", "ended_at"])
    transaction.on_commit(_counts_send)


def search_abandon(*, user_id: int) -> bool:
    """Cancel the player's search, if any, because no lobby page of theirs is open;
    whether there was one. Reads first: most lobby pages close with no search."""
    if not Search.objects.filter(
        user_id=user_id, status=Search.Status.WAITING
    ).exists():
        return False
    try:
        search_cancel(user_id=user_id)
    except MatchError:  # seated or cancelled meanwhile
        return False
    return True


def search_touch(*, user_id: int) -> None:
    """A lobby socket holds the player's search (on connect and every ping)."""
    Search.objects.filter(user_id=user_id, status=Search.Status.WAITING).update(
        seen_at=timezone.now()
    )


def searches_drop_abandoned(*, pool_key: str, now: datetime) -> int:
    """Drop searches no lobby socket has held for ``MATCHMAKING_ABANDON_SECONDS``."""
    cutoff = now - timedelta(seconds=settings.MATCHMAKING_ABANDON_SECONDS)
    return Search.objects.filter(
        pool=pool_key, status=Search.Status.WAITING, seen_at__lt=cutoff
    ).update(status=Search.Status.DROPPED, ended_at=now)


@dataclass
class WaveResult:
    """What one wave did: the tables it seated (and which were backfilled)."""

    ran: bool
    tables: list[int] = field(default_factory=list)
    backfilled: list[int] = field(default_factory=list)
    seated: dict[int, int] = field(default_factory=dict)  # user id -> table id
    more: bool = False


def _blocked_pairs(pool_key: str) -> set[frozenset[int]]:
    """Blocks between two of the pool's waiting players, in one query.

    Driven from the block rows: each side is one probe of the partial unique index
    on waiting searches, so the cost follows the blocks, not the 10,000 searches
    (``bench/matchmaker.py wave``; an ``IN`` over the waiting list read them all).
    """

    def waiting(side: str) -> Exists:
        return Exists(
            Search.objects.filter(
                user_id=OuterRef(side), status=Search.Status.WAITING, pool=pool_key
            )
        )

    rows = Block.objects.filter(waiting("blocker_id"), waiting("blocked_id"))
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


@transaction.atomic
def _batch_seat(
    pool: Pool, batch: Sequence[list[Waiting]], now: datetime, runner: str
) -> list[int | None] | None:
    """Seat each group of ``batch`` in one transaction; per group its table, or
    None if one of them stopped waiting since the read. None for the whole batch
    if the wave no longer holds its pool (its lease ran out and another took it).

    The batch's searches are locked first (one query, in id order, so two
    batches never wait for each other crosswise), so a group is seated only if
    every member still waits, and a cancel waits for this batch and then finds
    them seated. Their names are read once, and all the searches are marked in
    one guarded update.
    """
    if not _lease_renew(pool.key, runner):
        return None
    ids = [w.id for group in batch for w in group]
    locked = dict(
        Search.objects.select_for_update()
        .filter(pk__in=ids, status=Search.Status.WAITING)
        .order_by("pk")
        .values_list("pk", "speed")
    )
    still = set(locked)
    # A wave groups one speed at a time: the batch's searches share their clock.
    speed = speed_get(next(iter(locked.values()), DEFAULT_SPEED))
    seating = [i for i, group in enumerate(batch) if all(w.id in still for w in group)]
    # The name is all a new table's frames show of a player.
    users = (
        get_user_model()
        .objects.only("username")
        .in_bulk([w.user_id for i in seating for w in batch[i]])
    )
    created = groups_seat(
        pool=pool,
        groups=[
            [Member(user_id=w.user_id, rating=w.rating) for w in batch[i]]
            for i in seating
        ],
        users=users,
        speed=speed,
    )
    tables: list[int | None] = [None] * len(batch)
    seated: dict[int, int] = {}  # user id -> table id
    for i, table in zip(seating, created, strict=True):
        tables[i] = table.pk
        seated.update((w.user_id, table.pk) for w in batch[i])
    if seated:
        # Each search's table is its player's seat among the new tables: one
        # statement, its SQL the same for any batch (a ``CASE`` of a branch per
        # search cost the ORM more than seating the tables: ``bench/matchmaker.py
        # drain``).
        new_seat = Seat.objects.filter(
            user_id=OuterRef("user_id"), table_id__in=[t.pk for t in created]
        ).values("table_id")[:1]
        searches = [w.id for i in seating for w in batch[i]]
        marked = Search.objects.filter(
            pk__in=searches, status=Search.Status.WAITING
        ).update(
            status=Search.Status.SEATED,
            seated_table_id=Subquery(new_seat),
            ended_at=now,
        )
        if marked != len(searches):  # the row locks above make this impossible
            raise RuntimeError("a locked search stopped waiting during its wave")
        transaction.on_commit(lambda: seated_send(seated))
    return tables


class _SecondsBetween(Func):
    """``later - earlier`` in seconds as a float, computed by PostgreSQL.

    Equal to ``timedelta.total_seconds()`` of the same two instants, without
    parsing one datetime per row in Python (most of the read's time at 10,000
    searches: ``bench/matchmaker.py wave``).
    """

    arg_joiner = " - "
    template = "CAST(EXTRACT(EPOCH FROM (%(expressions)s)) AS double precision)"
    output_field = FloatField()


def _waiting(pool_key: str, now: datetime, speed: str = DEFAULT_SPEED) -> list[Waiting]:
    """The pool's waiting searches at one speed: one query of four columns.

    On PostgreSQL the query the ORM composes runs on a plain cursor: its rows are
    already ``(int, int, float, float)``, and the queryset's per-row converters
    cost a third of the read at 10,000 searches (``bench/matchmaker.py wave``).
    """
    rows = Search.objects.filter(
        pool=pool_key, speed=speed, status=Search.Status.WAITING
    )
    if connection.vendor != "postgresql":
        return [
            Waiting(pk, uid, rating, (now - at).total_seconds())
            for pk, uid, rating, at in rows.values_list(
                "pk", "user_id", "rating", "started_at"
            )
        ]
    since = _SecondsBetween(Value(now, output_field=DateTimeField()), F("started_at"))
    query = rows.annotate(waited=since).values_list("pk", "user_id", "rating", "waited")
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(map(Waiting._make, cursor.fetchall()))


def _overdue(waiting: list[Waiting], groups: list[list[Waiting]]) -> list[Waiting]:
    """The players left ungrouped past the backfill time, longest wait first."""
    grouped = {w.id for group in groups for w in group}
    overdue = [
        w
        for w in waiting
        if w.id not in grouped and w.waited >= settings.MATCHMAKING_BACKFILL_SECONDS
    ]
    return sorted(overdue, key=lambda w: -w.waited)


def wave_run(*, pool_key: str, now: datetime | None = None) -> WaveResult:
    """Run one wave of ``pool_key``: seat close ratings, backfill long waits.

    A pool nobody waits in is only read: a wave every few seconds of every pool
    would otherwise take the write lock, the whole database on SQLite, for nothing.
    """
    pool = pool_get(pool_key)
    if pool is None:
        raise MatchError("unknown_pool", _("There is no such game in the lobby."))
    if not Search.objects.filter(pool=pool.key, status=Search.Status.WAITING).exists():
        return WaveResult(ran=False)
    now = now or timezone.now()
    runner = _wave_claim(pool.key, now)
    if runner is None:
        return WaveResult(ran=False)
    result = WaveResult(ran=True)
    try:
        # A table runs one clock: each speed's searches are grouped on their own.
        for speed in speeds_all():
            if not _wave_seat(pool, speed, now, runner, result):
                break
    finally:
        _wave_release(pool.key, runner, now, result)
    if result.tables:
        _counts_send()
    if result.more:
        _wave_soon(pool.key)
    return result


def _wave_seat(
    pool: Pool, speed: Speed, now: datetime, runner: str, result: WaveResult
) -> bool:
    """Group the pool's waiting searches of one speed once, then seat them batch
    by batch; False if another wave took the pool meanwhile."""
    waiting = _waiting(pool.key, now, speed.key)
    seated_before = len(result.seated)
    groups = wave_groups(
        waiting, seats=pool.seats, gap=gap_setting(), blocked=_blocked_pairs(pool.key)
    )
    lone = _overdue(waiting, groups)
    plan = [*groups, *([w] for w in lone)]
    size = max(1, settings.MATCHMAKING_SEAT_BATCH_TABLES)
    skipped = False
    for first in range(0, len(plan), size):
        batch = plan[first : first + size]
        tables = _batch_seat(pool, batch, now, runner)
        if tables is None:  # another wave holds the pool now
            return False
        for index, (group, table_id) in enumerate(zip(batch, tables, strict=True)):
            if table_id is None:
                skipped = True
                continue
            result.tables.append(table_id)
            result.seated.update((w.user_id, table_id) for w in group)
            if first + index >= len(groups):  # a lone player with simulated ones
                result.backfilled.append(table_id)
    # Others may wait with those left: searches that started during the wave, or
    # the rest of a group one of whom left. Another wave at once groups them.
    left = len(waiting) - (len(result.seated) - seated_before)
    result.more = (
        result.more
        or skipped
        or (
            Search.objects.filter(
                pool=pool.key, speed=speed.key, status=Search.Status.WAITING
            ).count()
            > left
        )
    )
    return True


def _wave_claim(pool_key: str, now: datetime) -> str | None:
    """Claim the pool for a wave and drop its abandoned searches; the claim's
    token, or None if another wave holds the pool."""
    with transaction.atomic():
        PoolWave.objects.bulk_create([PoolWave(pool=pool_key)], ignore_conflicts=True)
        row = (
            PoolWave.objects.select_for_update(skip_locked=True)
            .filter(pk=pool_key)
            .first()
        )
        clock = timezone.now()  # the lease runs on the real clock, not ``now``
        if row is None or (row.running_until and row.running_until > clock):
            return None
        row.runner = secrets.token_hex(8)
        row.running_until = clock + timedelta(
            seconds=settings.MATCHMAKING_WAVE_LEASE_SECONDS
        )
        row.save(update_fields=["runner", "running_until"])
        searches_drop_abandoned(pool_key=pool_key, now=now)
        return row.runner


def _lease_renew(pool_key: str, runner: str) -> bool:
    """Extend the wave's lease, and hold the pool's row until the transaction
    ends; whether the wave still held it."""
    until = timezone.now() + timedelta(seconds=settings.MATCHMAKING_WAVE_LEASE_SECONDS)
    return bool(
        PoolWave.objects.filter(pk=pool_key, runner=runner).update(running_until=until)
    )


def _wave_release(
    pool_key: str, runner: str, now: datetime, result: WaveResult
) -> None:
    """Free the pool (if the wave still holds it) and note what the wave did."""
    with transaction.atomic():
        PoolWave.objects.filter(pk=pool_key, runner=runner).update(
            runner="",
            running_until=None,
            last_wave_at=now,
            last_tables=len(result.tables),
        )


def waves_run_all(*, now: datetime | None = None) -> list[WaveResult]:
    """One wave of every pool, one after the other."""
    return [wave_run(pool_key=p.key, now=now) for p in pools_all()]


def _wave_soon(pool_key: str) -> None:
    try:
        current_app.send_task(POOL_WAVE_TASK, args=(pool_key,), ignore_result=True)
    except Exception:
        logger.exception("could not queue a wave of %s", pool_key)


def seated_send(seated: dict[int, int]) -> None:
    """Each seated player (user id -> table id) hears of their table."""
    urls = {t: reverse("table", args=[t]) for t in set(seated.values())}
    notify.lobby_send(
        [
            (
                notify.lobby_user_group(user_id),
                {"type": "lobby.seated", "table": table_id, "url": urls[table_id]},
            )
            for user_id, table_id in seated.items()
        ]
    )


def _counts_send() -> None:
    notify.lobby_send(
        [(notify.LOBBY_GROUP, {"type": "lobby.counts", "pools": pool_counts()})]
    )
