"""Rated games among bots: the bots' own small queue (docs/api.md, "Bot accounts").

A bot account seeks a pool (and a speed) through the API; bots meet only bots,
never people (the people's pools refuse bot accounts), and are rated in their own
pool of ratings (``matchmaking.pools.ratings``: the key ``bot:<variant>``). When
no other bot comes within ``MATCHMAKING_BACKFILL_SECONDS``, the site's simulated
computer players (labelled as computers) fill the empty seats, as in the people's
pools. Pairing runs at each seek and on the beat (``api.bot_queue.pair``), which
the embedded default's in-process worker runs too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.bots import user_is_bot
from api.bot_models import BotSeek
from core.refusals import Refusal
from games.models import Table
from matchmaking.pools.config import DEFAULT_SPEED, pool_get, speed_get
from matchmaking.pools.display import rating_label, rating_points
from matchmaking.pools.models import Rating
from matchmaking.pools.ratings import BOT_KEY_PREFIX, MU
from matchmaking.pools.seating import Member, groups_seat

OPEN_STATUSES = (Table.Status.WAITING, Table.Status.PLAYING)


class BotQueueError(Refusal):
    """A seek the queue refuses, answered with ``status``; nothing changed."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = status


def bot_seek(*, user_id: int, pool: str, speed: str = "") -> BotSeek:
    """Queue the bot for a rated game in ``pool`` at ``speed`` (the default speed
    when empty), and pair at once if other bots wait.

    A bot seated at a table still open gets that seek back unchanged: a repeated
    or raced seek never queues it twice nor makes a second table. Raises
    ``BotQueueError`` for a person's account (403) and an unknown pool or speed
    (400).
    """
    if not user_is_bot(user_id=user_id):
        raise BotQueueError(
            403,
            "not_a_bot",
            gettext(
                "Only bot accounts use the bots' queue: people find games on the site."
            ),
        )
    found = pool_get(pool)
    if found is None:
        raise BotQueueError(400, "unknown_pool", gettext("There is no such pool."))
    speed_key = speed or DEFAULT_SPEED
    if speed_get(speed_key) is None:
        raise BotQueueError(400, "unknown_speed", gettext("There is no such speed."))
    with transaction.atomic():
        now = timezone.now()
        seek, created = BotSeek.objects.get_or_create(
            user_id=user_id,
            defaults={"pool": found.key, "speed": speed_key, "created_at": now},
        )
        if not created:
            seek = BotSeek.objects.select_for_update().get(pk=user_id)
            if seek.table_id is None and (seek.pool, seek.speed) == (
                found.key,
                speed_key,
            ):
                pass  # waiting already: keep its place in the queue
            elif seek.table_id is not None and _table_open(seek.table_id):
                return seek  # seated: that table is the answer
            else:
                seek.pool, seek.speed = found.key, speed_key
                seek.created_at, seek.table_id = now, None
                seek.save()
    bot_queue_pair(pool=found.key, speed=speed_key)
    return BotSeek.objects.get(pk=user_id)


def bot_seek_cancel(*, user_id: int) -> bool:
    """Leave the queue; True if the bot was waiting."""
    deleted, _ = BotSeek.objects.filter(user_id=user_id, table_id__isnull=True).delete()
    return bool(deleted)


def _table_open(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id, status__in=OPEN_STATUSES).exists()


def _groups(
    waiting: Sequence[BotSeek], *, seats: int, now: datetime
) -> list[list[BotSeek]]:
    """Full tables of the longest waiting bots, and the rest as one table once its
    first bot has waited the backfill time."""
    groups = [list(waiting[i : i + seats]) for i in range(0, len(waiting), seats)]
    backfill = timedelta(seconds=float(settings.MATCHMAKING_BACKFILL_SECONDS))
    if groups and len(groups[-1]) < seats and now - groups[-1][0].created_at < backfill:
        groups.pop()
    return groups


@transaction.atomic
def bot_queue_pair(*, pool: str, speed: str, now: datetime | None = None) -> int:
    """Seat the waiting bots of one pool and speed; the number of tables made.

    The waiting seeks are locked in one order, so two pairings at once seat each
    bot once: the second finds them seated.
    """
    found, pace = pool_get(pool), speed_get(speed)
    if found is None or pace is None:
        return 0
    now = now or timezone.now()
    waiting = list(
        BotSeek.objects.select_for_update()
        .filter(pool=pool, speed=speed, table_id__isnull=True)
        .order_by("created_at", "pk")
    )
    groups = _groups(waiting, seats=found.seats, now=now)
    if not groups:
        return 0
    key = f"{BOT_KEY_PREFIX}{found.variant}"
    mus = dict(
        Rating.objects.filter(
            user_id__in=[s.user_id for g in groups for s in g], variant=key
        ).values_list("user_id", "mu")
    )
    tables = groups_seat(
        pool=found,
        groups=[
            [Member(user_id=s.user_id, rating=mus.get(s.user_id, MU)) for s in g]
            for g in groups
        ],
        speed=pace,
        mode=Table.Mode.ONLINE,
    )
    for group, table in zip(groups, tables, strict=True):
        BotSeek.objects.filter(pk__in=[s.pk for s in group]).update(table_id=table.pk)
    return len(tables)


def bot_queue_pair_all(*, now: datetime | None = None) -> int:
    """Pair every pool and speed that has waiting bots (the beat's run); writes
    nothing when nobody waits."""
    keys = (
        BotSeek.objects.filter(table_id__isnull=True)
        .values_list("pool", "speed")
        .distinct()
    )
    return sum(bot_queue_pair(pool=p, speed=s, now=now) for p, s in list(keys))


def bot_ratings(*, user_id: int) -> dict[str, dict[str, Any]]:
    """The bot's ratings among bots, by variant, as the site shows ratings
    ("1512", "1460?" while provisional)."""
    rows = Rating.objects.filter(
        user_id=user_id, variant__startswith=BOT_KEY_PREFIX
    ).order_by("variant")
    return {
        r.variant.removeprefix(BOT_KEY_PREFIX): {
            "rating": rating_points(r.mu),
            "label": rating_label(mu=r.mu, sigma=r.sigma, tables=r.tables),
            "tables": r.tables,
        }
        for r in rows
    }


@shared_task(name="api.bot_queue.pair", ignore_result=True)  # type: ignore[untyped-decorator]
def bot_queue_pair_task() -> None:
    """Pair and backfill the bots' queue (on the beat schedule)."""
    bot_queue_pair_all()
