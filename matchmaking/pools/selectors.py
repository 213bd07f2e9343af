"""Matchmaking reads: pool counts, a player's search, live tables, ratings."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache
from statistics import median
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from dbtools.prepared import prepared_cursor
from economy.selectors import table_earnings
from games.models import FinishStep, Seat, Table
from games.names import variant_title
from matchmaking.pools.config import (
    DEFAULT_SPEED,
    Pool,
    gap_setting,
    pool_get,
    pools_all,
    speed_get,
    speeds_all,
)
from matchmaking.pools.display import rating_label, rating_points, rating_provisional
from matchmaking.pools.models import (
    Cooldown,
    Rating,
    RatingChange,
    Search,
    Seek,
    SeekPlayer,
)
from matchmaking.pools.ratings import BOT_KEY_PREFIX, MU, RATED_MODES, SIGMA
from matchmaking.pools.seek_selectors import seeks_list

# A player with a seat at a table of these modes and states cannot search a pool.
LIVE_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
LIVE_STATUSES = (Table.Status.WAITING, Table.Status.PLAYING)


def live_table_of(*, user_id: int) -> int | None:
    """The live online or stake table where the player holds a seat, if any."""
    return (
        Seat.objects.filter(
            user_id=user_id,
            forfeited=False,
            table__mode__in=LIVE_MODES,
            table__status__in=LIVE_STATUSES,
        )
        .values_list("table_id", flat=True)
        .first()
    )


def pool_counts() -> list[dict[str, Any]]:
    """Per pool: players waiting and people playing now."""
    waiting = dict(
        Search.objects.filter(status=Search.Status.WAITING)
        .values("pool")
        .annotate(n=Count("id"))
        .values_list("pool", "n")
    )
    live = Table.objects.filter(mode=Table.Mode.ONLINE, status=Table.Status.PLAYING)
    playing = dict(
        Search.objects.filter(
            status=Search.Status.SEATED, seated_table_id__in=live.values("pk")
        )
        .values("pool")
        .annotate(n=Count("id"))
        .values_list("pool", "n")
    )
    return [
        {
            "key": p.key,
            "waiting": waiting.get(p.key, 0),
            "playing": playing.get(p.key, 0),
        }
        for p in pools_all()
    ]


def pool_wait_estimate(*, pool: Pool, now: datetime) -> int:
    """Seconds: the median wait of the pool's last seated searches (this hour)."""
    rows = Search.objects.filter(
        pool=pool.key,
        status=Search.Status.SEATED,
        ended_at__gt=now - timedelta(hours=1),
    ).order_by("-ended_at")[:50]
    waits = [(s.ended_at - s.started_at).total_seconds() for s in rows if s.ended_at]
    if not waits:
        return int(settings.MATCHMAKING_BACKFILL_SECONDS)
    return max(1, round(median(waits)))


def search_frame(*, user_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """The player's current search as the lobby shows it, or None."""
    now = now or timezone.now()
    search = Search.objects.filter(
        user_id=user_id, status=Search.Status.WAITING
    ).first()
    if search is None:
        return None
    pool = pool_get(search.pool)
    waited = max(0.0, (now - search.started_at).total_seconds())
    gap = gap_setting().allowed(waited)
    speed = speed_get(search.speed)
    return {
        "pool": search.pool,
        "speed": search.speed,
        "clock": speed.clock_seconds if speed else None,
        "title": pool.title if pool else search.pool,
        "waited": int(waited),
        "started_at": search.started_at.timestamp(),
        "estimate": pool_wait_estimate(pool=pool, now=now) if pool else None,
        "range": [round(search.rating - gap), round(search.rating + gap)],
    }


def cooldown_frame(*, user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """The player's cooldown and whether the first-time warning is still to be seen."""
    now = now or timezone.now()
    row = Cooldown.objects.filter(user_id=user_id).first()
    if row is None:
        return {"until": None, "minutes": 0, "warning": False}
    active = row.until is not None and row.until > now
    return {
        "until": row.until.timestamp() if active and row.until else None,
        "minutes": row.minutes if active else 0,
        "warning": row.warned and not row.warning_seen,
    }


def seat_name(seat: Seat) -> dict[str, Any]:
    """A seat's shown name; simulated players carry their generated name, other
    computer players their level (the page words it in its own language)."""
    if seat.user is not None:
        return {"name": seat.user.username, "computer": False}
    return {"name": seat.name or None, "computer": True, "level": seat.bot_level}


def live_tables(*, limit: int = 20) -> list[dict[str, Any]]:
    """Online tables being played now, newest first, for spectators."""
    tables = (
        Table.objects.filter(mode=Table.Mode.ONLINE, status=Table.Status.PLAYING)
        .order_by("-started_at")
        .prefetch_related("seats__user")[:limit]
    )
    return [
        {
            "id": t.pk,
            "variant": t.variant,
            "title": variant_title(t.variant),
            "seats": [seat_name(s) for s in t.seats.all()],
        }
        for t in tables
    ]


def _rating_labels(*, user_id: int) -> dict[str, str]:
    """The player's displayed rating per variant ("1512", "1460?")."""
    return {
        r.variant: rating_label(mu=r.mu, sigma=r.sigma, tables=r.tables)
        for r in Rating.objects.filter(user_id=user_id)
    }


def seek_table_of(*, user_id: int) -> int | None:
    """The live table an open table of the lobby seated the player at, if any
    (its unrated tables are friend tables, which :func:`live_table_of` leaves out)."""
    tables = Seek.objects.filter(
        status=Seek.Status.STARTED, rated=False, table_id__isnull=False
    ).values("table_id")
    return (
        Seat.objects.filter(
            user_id=user_id,
            forfeited=False,
            table_id__in=tables,
            table__status__in=LIVE_STATUSES,
        )
        .values_list("table_id", flat=True)
        .first()
    )


def lobby_state(*, user_id: int) -> dict[str, Any]:
    """Everything the lobby page shows a player, as one ``state`` frame: per pool
    its counts, the table's shape (target, turn clock of the default speed and
    every speed's clocks, about how many hands) and the player's rating in its
    variant ("1500?" before any rated table); the open tables they may see."""
    counts = {c["key"]: c for c in pool_counts()}
    speeds = [s.as_json() for s in speeds_all()]
    default = speed_get(DEFAULT_SPEED)
    default_clock = (
        default.clock_seconds if default else settings.MATCHMAKING_CLOCK_SECONDS
    )
    labels = _rating_labels(user_id=user_id)
    new_label = rating_label(mu=MU, sigma=SIGMA, tables=0)
    return {
        "type": "state",
        "pools": [
            {
                "key": p.key,
                "title": p.title,
                "target": p.target,
                "clock": default_clock,
                "speeds": speeds,
                "hands": p.hands,
                "rating": labels.get(p.variant, new_label),
                **counts[p.key],
            }
            for p in pools_all()
        ],
        "search": search_frame(user_id=user_id),
        "seeks": seeks_list(user_id=user_id),
        "seated": live_table_of(user_id=user_id) or seek_table_of(user_id=user_id),
        "cooldown": cooldown_frame(user_id=user_id),
        "tables": live_tables(),
    }


def ratings_of(*, user_id: int) -> list[dict[str, Any]]:
    """A player's rating per variant, as shown on the profile: ``key`` is the
    rating's own key, ``variant`` the variant it rates and ``bots`` whether it is
    a rating among bots (a bot account's, ``ratings.rating_key``)."""
    return [
        {
            "key": r.variant,
            "variant": r.variant.removeprefix(BOT_KEY_PREFIX),
            "bots": r.variant.startswith(BOT_KEY_PREFIX),
            "label": rating_label(mu=r.mu, sigma=r.sigma, tables=r.tables),
            "tables": r.tables,
        }
        for r in Rating.objects.filter(user_id=user_id).order_by("variant")
    ]


def rating_history(*, user_id: int, variant: str) -> list[int]:
    """The displayed rating after each rated table of the variant, oldest first."""
    changes = RatingChange.objects.filter(user_id=user_id, variant=variant)
    return [rating_points(mu) for mu in changes.values_list("mu_after", flat=True)]


def rating_change_of(*, user_id: int, table_id: int) -> int | None:
    """The displayed change one table made to the player's rating ("+14")."""
    row = RatingChange.objects.filter(user_id=user_id, table_id=table_id).first()
    if row is None:
        return None
    return rating_points(row.mu_after) - rating_points(row.mu_before)


def rating_last_change(*, user_id: int) -> dict[str, Any] | None:
    """The player's latest rated table: its id, variant and displayed change."""
    row = RatingChange.objects.filter(user_id=user_id).order_by("-created_at").first()
    if row is None:
        return None
    change = rating_points(row.mu_after) - rating_points(row.mu_before)
    return {
        "table": row.table_id,
        "variant": row.variant,
        "title": variant_title(row.variant),
        "change": f"{change:+d}",
    }


def _unrated_reason(*, table_id: int) -> str | None:
    """Why a finished table of a rated mode changed nobody's rating, as a code the
    result screen words: ``"computers"`` when computer players (a ranked table's
    backfill) took the seats that would have rated the player, leaving fewer than
    two people (``matchmaking.pools.ratings``: only people are rated). None for a
    table that rates, or of a mode that never does."""
    table = Table.objects.filter(pk=table_id).only("mode").first()
    if table is None or table.mode not in RATED_MODES:
        return None
    seats = list(
        Seat.objects.filter(table_id=table_id).values_list("user_id", "simulated")
    )
    people = sum(
        1 for user_id, simulated in seats if user_id is not None and not simulated
    )
    if people < 2 and len(seats) > people:
        return "computers"
    return None


def table_outcome(*, user_id: int, table_id: int) -> dict[str, Any]:
    """What one finished table brought the player: the rating after it ("1605?"),
    the displayed change, and the coins and XP it paid (rewards; a stake pot's
    payout is the pot's own line). ``pending`` while a finish consequence of the
    table is still to apply after its commit: the figures may then still change.

    ``provisional`` says the rating still carries its "?", with the rated tables
    played in the variant (``tables``) and the number a settled rating needs
    (``needed``); ``unrated`` is why the table rated nobody (:func:`_unrated_reason`).
    """
    pending = FinishStep.objects.filter(
        table_id=table_id, done_at__isnull=True
    ).exists()
    row = RatingChange.objects.filter(user_id=user_id, table_id=table_id).first()
    rating: str | None = None
    change: int | None = None
    tables = 0
    provisional = False
    if row is not None:
        change = rating_points(row.mu_after) - rating_points(row.mu_before)
        tables = RatingChange.objects.filter(
            user_id=user_id, variant=row.variant, pk__lte=row.pk
        ).count()
        rating = rating_label(mu=row.mu_after, sigma=row.sigma_after, tables=tables)
        provisional = rating_provisional(tables=tables, sigma=row.sigma_after)
    coins, xp = table_earnings(user_id=user_id, table_ref=str(table_id))
    return {
        "pending": pending,
        "rating": rating,
        "change": change,
        "provisional": provisional,
        "tables": tables,
        "needed": int(settings.MATCHMAKING_PROVISIONAL_TABLES),
        "unrated": None if row is not None else _unrated_reason(table_id=table_id),
        "coins": coins,
        "xp": xp,
    }


def rating_standing(*, user_id: int, variant: str) -> dict[str, Any]:
    """The player's own standing in a variant: the displayed rating ("1605?"),
    rated tables so far and the number a settled rating needs."""
    row = Rating.objects.filter(user_id=user_id, variant=variant).first()
    needed = int(settings.MATCHMAKING_PROVISIONAL_TABLES)
    if row is None:
        return {
            "rating": rating_label(mu=MU, sigma=SIGMA, tables=0),
            "tables": 0,
            "needed": needed,
            "provisional": True,
        }
    return {
        "rating": rating_label(mu=row.mu, sigma=row.sigma, tables=row.tables),
        "tables": row.tables,
        "needed": needed,
        "provisional": rating_provisional(tables=row.tables, sigma=row.sigma),
    }


def leaderboard(*, variant: str) -> list[dict[str, Any]]:
    """Non-provisional players of a variant, best first (the view paginates)."""
    rows = (
        Rating.objects.filter(
            variant=variant,
            tables__gte=settings.MATCHMAKING_PROVISIONAL_TABLES,
            sigma__lte=settings.MATCHMAKING_PROVISIONAL_SIGMA,
        )
        .select_related("user")
        .order_by("-mu", "user_id")
    )
    return [
        {
            "username": r.user.username,
            "rating": rating_points(r.mu),
            "tables": r.tables,
            "provisional": rating_provisional(tables=r.tables, sigma=r.sigma),
        }
        for r in rows
    ]


@cache
def _waiting_sql() -> str:
    meta = Search._meta
    place = SeekPlayer._meta
    quote = connection.ops.quote_name
    return (
        f"SELECT 1 FROM {quote(meta.db_table)} "  # noqa: S608 - names from the model
        f"WHERE {quote(meta.get_field('user').column)} = %s "
        f"AND {quote(meta.get_field('status').column)} = %s "
        f"UNION ALL SELECT 1 FROM {quote(place.db_table)} "
        f"WHERE {quote(place.get_field('user').column)} = %s "
        f"AND {quote(place.get_field('active').column)} LIMIT 1"
    )


def user_searching(*, user_id: int) -> bool:
    """Whether the player waits in an online pool now, or at an open table of the
    lobby (plain SQL: the stake tables ask this on every sit-down, where the query
    compiler cost more than the query)."""
    with prepared_cursor() as cursor:
        cursor.execute(_waiting_sql(), [user_id, Search.Status.WAITING.value, user_id])
        return cursor.fetchone() is not None
