"""Reads of the lobby's open tables ("seeks"): the list a player sees."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.models import Table
from matchmaking.pools.config import pool_get, speed_get
from matchmaking.pools.display import rating_label
from matchmaking.pools.models import Block, Rating, Seek, SeekPlayer
from matchmaking.pools.ratings import MU, SIGMA

# The lobby lists this many open tables at most, the oldest first.
SEEKS_SHOWN = 50


def _blocked_ids(user_id: int) -> set[int]:
    """Everyone the player blocks or is blocked by."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
    return {
        other
        for pair in rows.values_list("blocker_id", "blocked_id")
        for other in pair
        if other != user_id
    }


def seeks_list(*, user_id: int) -> list[dict[str, Any]]:
    """The open tables the player may see: none with a player they block or who
    blocks them; each with its players and their displayed ratings ("1500?" while
    provisional), whether the player holds a place (``joined``) or owns it."""
    hidden = _blocked_ids(user_id)
    # A stake seek whose stake table started or was cancelled on the stake books'
    # side is no longer open (the sweep closes the seek soon after).
    closed = Table.objects.filter(mode=Table.Mode.STAKE).exclude(
        status=Table.Status.WAITING
    )
    seeks = list(
        Seek.objects.filter(status=Seek.Status.OPEN)
        .exclude(stake_table_id__in=closed.values("pk"))
        .order_by("created_at", "pk")[: SEEKS_SHOWN * 2]
    )
    places = list(
        SeekPlayer.objects.filter(seek__in=seeks, active=True)
        .select_related("user")
        .order_by("joined_at", "pk")
    )
    by_seek: dict[int, list[SeekPlayer]] = {}
    for place in places:
        by_seek.setdefault(place.seek_id, []).append(place)
    variants = {p.variant for s in seeks if (p := pool_get(s.pool)) is not None}
    ratings = {
        (r.user_id, r.variant): r
        for r in Rating.objects.filter(
            user_id__in={p.user_id for p in places}, variant__in=variants
        )
    }
    new_label = rating_label(mu=MU, sigma=SIGMA, tables=0)
    shown: list[dict[str, Any]] = []
    for seek in seeks:
        pool, speed = pool_get(seek.pool), speed_get(seek.speed)
        there = by_seek.get(seek.pk, [])
        if pool is None or speed is None or not there:
            continue
        if hidden & {p.user_id for p in there}:
            continue

        def label(user_id: int, variant: str = pool.variant) -> str:
            r = ratings.get((user_id, variant))
            if r is None:
                return new_label
            return rating_label(mu=r.mu, sigma=r.sigma, tables=r.tables)

        shown.append(
            {
                "id": seek.pk,
                "pool": pool.key,
                "title": pool.title,
                "seats": pool.seats,
                "speed": speed.key,
                "clock": speed.clock_seconds,
                "bank": speed.bank_seconds,
                "rated": seek.rated,
                "stake": seek.stake,
                "players": [
                    {"name": p.user.username, "rating": label(p.user_id)} for p in there
                ],
                "mine": seek.owner_id == user_id,
                "joined": any(p.user_id == user_id for p in there),
            }
        )
        if len(shown) >= SEEKS_SHOWN:
            break
    return shown
