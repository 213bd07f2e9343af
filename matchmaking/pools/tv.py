"""What TV (``games.tv``) asks of the pools: the people's displayed ratings and
the variants that have pools (registered in ``matchmaking.hooks``)."""

from __future__ import annotations

from collections.abc import Sequence

from matchmaking.pools.config import pools_all
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Rating
from matchmaking.pools.ratings import MU


def tv_ratings(variant: str, user_ids: Sequence[int]) -> dict[int, float]:
    """Each person's displayed rating in ``variant``; a person who has none yet
    shows what a newcomer shows."""
    found = dict(
        Rating.objects.filter(variant=variant, user_id__in=user_ids).values_list(
            "user_id", "mu"
        )
    )
    return {
        user_id: float(rating_points(found.get(user_id, MU))) for user_id in user_ids
    }


def tv_variants() -> list[str]:
    """The variants that have pools, each once."""
    return list(dict.fromkeys(pool.variant for pool in pools_all()))
