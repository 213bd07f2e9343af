"""How a rating is shown: a 1500-based figure, "?" while provisional."""

from __future__ import annotations

from django.conf import settings

from matchmaking.pools.ratings import MU

SCALE = 40.0  # display points per openskill mu point (a new sigma shows as 333)
BASE = 1500.0


def rating_points(mu: float) -> int:
    """The displayed figure of ``mu`` (1500 for a new player)."""
    return round(BASE + (mu - MU) * SCALE)


def rating_provisional(*, tables: int, sigma: float) -> bool:
    return (
        tables < settings.MATCHMAKING_PROVISIONAL_TABLES
        or sigma > settings.MATCHMAKING_PROVISIONAL_SIGMA
    )


def rating_label(*, mu: float, sigma: float, tables: int) -> str:
    """``"1512"``, or ``"1512?"`` while provisional."""
    points = str(rating_points(mu))
    return points + "?" if rating_provisional(tables=tables, sigma=sigma) else points
