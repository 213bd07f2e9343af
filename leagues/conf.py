"""League settings, read when used (never at import time), each with its default.

Override any of them in ``config/settings.py``; ``docs/league.md`` explains them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings

DIVISIONS = ("bronze", "silver", "gold", "platinum", "diamond")

# League points by table shape and finishing place (1 = best): ``"<seats>"`` for
# every-player-for-themself tables, ``"<seats>p"`` for partnerships (the side's place).
DEFAULT_POINTS: dict[str, list[int]] = {
    "2": [10, 3],
    "3": [10, 5, 2],
    "4": [10, 6, 3, 1],
    "4p": [8, 2],
}

# Extra points for each place of a stake table, by its entry fee in coins.
DEFAULT_STAKE_BONUS: dict[int, int] = {100: 2, 250: 4, 500: 6, 1000: 10}

# Per division: how many of a group's ranked players go up and down, and the coins
# paid by group rank (first, second, ...).
DEFAULT_ZONES: dict[str, dict[str, object]] = {
    "bronze": {"up": 10, "down": 0, "rewards": [50, 30, 20]},
    "silver": {"up": 7, "down": 5, "rewards": [75, 45, 30]},
    "gold": {"up": 5, "down": 5, "rewards": [100, 60, 40]},
    "platinum": {"up": 5, "down": 5, "rewards": [150, 90, 60]},
    "diamond": {"up": 0, "down": 5, "rewards": [200, 120, 80]},
}


@dataclass(frozen=True)
class Zone:
    up: int
    down: int
    rewards: tuple[int, ...]


def points_table() -> dict[str, list[int]]:
    return dict(getattr(settings, "LEAGUE_POINTS", DEFAULT_POINTS))


def stake_bonus(stake: int | None) -> int:
    if not stake:
        return 0
    table = getattr(settings, "LEAGUE_STAKE_BONUS", DEFAULT_STAKE_BONUS)
    return int(table.get(int(stake), 0))


def simulated_weight() -> Decimal:
    return Decimal(str(getattr(settings, "LEAGUE_SIMULATED_WEIGHT", "0.5")))


def group_size() -> int:
    return int(getattr(settings, "LEAGUE_GROUP_SIZE", 30))


def pair_daily_limit() -> int:
    """How many tables a day the same two accounts count for together."""
    return int(getattr(settings, "LEAGUE_PAIR_DAILY_LIMIT", 3))


def close_grace_seconds() -> float:
    """How long after a week's end the rollover waits for tables still committing."""
    return float(getattr(settings, "LEAGUE_CLOSE_GRACE_SECONDS", 10.0))


def zone(division: str) -> Zone:
    zones = getattr(settings, "LEAGUE_ZONES", DEFAULT_ZONES)
    row = zones[division]
    return Zone(
        up=int(row["up"]),
        down=int(row["down"]),
        rewards=tuple(int(c) for c in row["rewards"]),
    )
