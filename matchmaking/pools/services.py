"""Matchmaking writes: start, keep and cancel a search; run a pool's wave.

A wave holds its pool's ``PoolWave`` row lock (``select_for_update(skip_locked)``: a
second wave of the same pool returns at once), groups the waiting searches
(``matchmaking.pools.waves``) as far as it seats, locks the searches of the groups it
seats, so a search cancelled meanwhile keeps its group from sitting, seats each
group through the ``games`` services and marks the searches seated with one guarded
update. Players hear of their table after commit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import (
    Case,
    DateTimeField,
    Exists,
    F,
    FloatField,
    Func,
    OuterRef,
    Value,
    When,
)
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from matchmaking.commitments import committed_elsewhere, player_lock
from matchmaking.errors import MatchError
from matchmaking.pools import notify
from matchmaking.pools.conduct import free_to_sit_check
from matchmaking.pools.config import Pool, gap_setting, pool_get, pools_all
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Block, PoolWave, Rating, Search
from matchmaking.pools.seating import Member, groups_seat
from matchmaking.pools.selectors import live_table_of, pool_counts
from matchmaking.pools.waves import Waiting, wave_first_groups

logger = logging.getLogger(__name__)

# The Celery task (``matchmaking.pools.tasks``) that runs one pool's wave, queued
# by name so that the services do not import the task shells built over them.
POOL_WAVE_TASK = "matchmaking.pool_wave"


def _rating_for(user_id: int, variant: str) -> float:
    mu = (
        Rating.objects.filter(user_id=user_id, variant=variant)
        .values_list("mu", flat=True)
        .first()
    )
    return float(rating_points(mu)) if mu is not None else float(rating_points(25.0))


@transaction.atomic
def search_start(*, user_id: int, pool_key: object) -> Search:
    """Put the player in a pool; refused while searching, seated, in cooldown or
    committed elsewhere (a sit-and-go: ``matchmaking.commitments``, whose lock the
    search takes first, so a commitment racing it by the same player is seen)."""
    pool = pool_get(pool_key)
    if pool is None:
        raise MatchError("unknown_pool", _("There is no such game in the lobby."))
    player_lock(user_id=user_id)
    free_to_sit_check(user_id=user_id)
    if reason := committed_elsewhere(user_id):
        raise MatchError("busy_elsewhere", reason)
    if Search.objects.filter(user_id=user_id, status=Search.Status.WAITING).exists():
        raise MatchError("already_searching", _("You are already looking for a table."))
    now = timezone.now()
    try:
        with transaction.atomic():
            search = Search.objects.create(
                user_id=user_id,
                pool=pool.key,
                rating=_rating_for(user_id, pool.variant),
                started_at=now,
                seen_at=now,
            )
    except IntegrityError:
        raise MatchError(
            "already_searching", _("You are already looking for a table.")
        ) from None
    waiting = Search.objects.filter(pool=pool.key, status=Search.Status.WAITING)
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


def _seat_all(
    pool: Pool, batch: list[list[Waiting]], now: datetime
) -> list[int | None]:
    """Seat each group of ``batch``; per group its table, or None if one of them
    stopped waiting since the read.

    The batch's searches are locked first (one query), so a group is seated only if
    every member still waits, and a cancel waits for this wave and then finds them
    seated. Their users are read once, and all the searches are marked in one
    guarded update.
    """
    ids = [w.id for group in batch for w in group]
    still = set(
        Search.objects.select_for_update()
        .filter(pk__in=ids, status=Search.Status.WAITING)
        .values_list("pk", flat=True)
    )
    users = get_user_model().objects.in_bulk([w.user_id for g in batch for w in g])
    seating = [i for i, group in enumerate(batch) if all(w.id in still for w in group)]
    created = groups_seat(
        pool=pool,
        groups=[
            [Member(user_id=w.user_id, rating=w.rating) for w in batch[i]]
            for i in seating
        ],
        users=users,
    )
    tables: list[int | None] = [None] * len(batch)
    marks: dict[int, int] = {}  # search id -> table id
    for i, table in zip(seating, created, strict=True):
        tables[i] = table.pk
        marks.update((w.id, table.pk) for w in batch[i])
    if marks:
        table_of = Case(*(When(pk=s, then=Value(t)) for s, t in marks.items()))
        marked = Search.objects.filter(
            pk__in=list(marks), status=Search.Status.WAITING
        ).update(status=Search.Status.SEATED, seated_table_id=table_of, ended_at=now)
        if marked != len(marks):  # the row locks above make this impossible
            raise RuntimeError("a locked search stopped waiting during its wave")
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


def _waiting(pool_key: str, now: datetime) -> list[Waiting]:
    """The pool's waiting searches: one query of four columns.

    On PostgreSQL the query the ORM composes runs on a plain cursor: its rows are
    already ``(int, int, float, float)``, and the queryset's per-row converters
    cost a third of the read at 10,000 searches (``bench/matchmaker.py wave``).
    """
    rows = Search.objects.filter(pool=pool_key, status=Search.Status.WAITING)
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


def _overdue(
    waiting: list[Waiting], groups: list[list[Waiting]], limit: int
) -> list[Waiting]:
    """The longest waits left ungrouped past the backfill time, to fill the cap."""
    grouped = {w.id for group in groups for w in group}
    overdue = [
        w
        for w in waiting
        if w.id not in grouped and w.waited >= settings.MATCHMAKING_BACKFILL_SECONDS
    ]
    return sorted(overdue, key=lambda w: -w.waited)[: max(0, limit - len(groups))]


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
    return _wave_run_locked(pool, now or timezone.now())


@transaction.atomic
def _wave_run_locked(pool: Pool, now: datetime) -> WaveResult:
    PoolWave.objects.bulk_create([PoolWave(pool=pool.key)], ignore_conflicts=True)
    lock = (
        PoolWave.objects.select_for_update(skip_locked=True).filter(pk=pool.key).first()
    )
    if lock is None:
        return WaveResult(ran=False)
    searches_drop_abandoned(pool_key=pool.key, now=now)
    waiting = _waiting(pool.key, now)
    result = WaveResult(ran=True)
    limit = settings.MATCHMAKING_WAVE_MAX_TABLES
    tables, whole = wave_first_groups(
        waiting,
        seats=pool.seats,
        gap=gap_setting(),
        limit=limit,
        blocked=_blocked_pairs(pool.key),
    )
    result.more = whole is None or len(whole) > limit
    lone = [] if whole is None else _overdue(waiting, whole, limit)
    batch = [*tables, *([w] for w in lone)]
    for index, (group, table_id) in enumerate(
        zip(batch, _seat_all(pool, batch, now), strict=True)
    ):
        if table_id is None:
            continue
        result.tables.append(table_id)
        result.seated.update((w.user_id, table_id) for w in group)
        if index >= len(tables):  # a lone player seated with simulated ones
            result.backfilled.append(table_id)
    lock.last_wave_at = now
    lock.last_tables = len(result.tables)
    lock.save(update_fields=["last_wave_at", "last_tables"])
    if result.tables:
        transaction.on_commit(lambda: _seated_send(result))
    if result.more:
        transaction.on_commit(lambda: _wave_soon(pool.key))
    return result


def waves_run_all(*, now: datetime | None = None) -> list[WaveResult]:
    """One wave of every pool, each in its own transaction."""
    return [wave_run(pool_key=p.key, now=now) for p in pools_all()]


def _wave_soon(pool_key: str) -> None:
    try:
        current_app.send_task(POOL_WAVE_TASK, args=(pool_key,), ignore_result=True)
    except Exception:
        logger.exception("could not queue a wave of %s", pool_key)


def _seated_send(result: WaveResult) -> None:
    notify.lobby_send(
        [
            (
                notify.lobby_user_group(user_id),
                {
                    "type": "lobby.seated",
                    "table": table_id,
                    "url": reverse("table", args=[table_id]),
                },
            )
            for user_id, table_id in result.seated.items()
        ]
    )
    _counts_send()


def _counts_send() -> None:
    notify.lobby_send(
        [(notify.LOBBY_GROUP, {"type": "lobby.counts", "pools": pool_counts()})]
    )
