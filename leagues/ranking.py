"""A group's final order, zones and rewards (pure: no database).

Order: points (most first), then who reached their total first, then who joined
first. A player with no points takes no place: no rank, no move, no reward. Of the
``n`` ranked players the top ``min(up, n)`` go up and the bottom
``min(down, n - up)`` go down, so the zones never overlap in a small group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from leagues.conf import Zone

PROMOTED, DEMOTED, STAYED = "promoted", "demoted", "stayed"


@dataclass(frozen=True)
class Standing:
    id: int
    points: Decimal
    reached_at: datetime
    joined_at: datetime
    eligible: bool = True  # False for a deleted or deactivated account


@dataclass(frozen=True)
class Outcome:
    rank: int | None
    result: str
    reward: int


def standing_order(rows: Sequence[Standing]) -> list[Standing]:
    return sorted(rows, key=lambda r: (-r.points, r.reached_at, r.joined_at, r.id))


def zone_sizes(*, ranked: int, zone: Zone) -> tuple[int, int]:
    """How many of ``ranked`` players go up and down."""
    up = min(zone.up, ranked)
    return up, min(zone.down, ranked - up)


def group_outcomes(rows: Sequence[Standing], zone: Zone) -> dict[int, Outcome]:
    ranked = [r for r in standing_order(rows) if r.eligible and r.points > 0]
    up, down = zone_sizes(ranked=len(ranked), zone=zone)
    outcomes = {r.id: Outcome(rank=None, result=STAYED, reward=0) for r in rows}
    for i, row in enumerate(ranked):
        rank = i + 1
        if rank <= up:
            result = PROMOTED
        elif rank > len(ranked) - down:
            result = DEMOTED
        else:
            result = STAYED
        reward = zone.rewards[i] if i < len(zone.rewards) else 0
        outcomes[row.id] = Outcome(rank=rank, result=result, reward=reward)
    return outcomes
