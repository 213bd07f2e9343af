"""The grouping of one wave: pure, no Django, so golden cases can pin it down.

Players are sorted by rating; every run of ``seats`` neighbours is a candidate table
whose spread (highest minus lowest rating) must fit the allowed gap of each member,
which widens with the member's wait. Candidates are taken closest first (smallest
spread; then the longest wait), never reusing a player, never seating a blocked pair
together; the pass repeats over who is left until it finds nothing new.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True, slots=True)
class Gap:
    """Allowed rating gap: ``start`` at once, ``per_second`` more, up to ``cap``."""

    start: float
    per_second: float
    cap: float

    def allowed(self, waited: float) -> float:
        return min(self.cap, self.start + self.per_second * max(0.0, waited))


@dataclass(frozen=True, slots=True)
class Waiting:
    """One waiting search as the wave sees it."""

    id: int
    user_id: int
    rating: float
    waited: float


def _blocked_inside(
    members: Sequence[Waiting], blocked: Collection[frozenset[int]]
) -> bool:
    return any(
        frozenset((a.user_id, b.user_id)) in blocked
        for a, b in combinations(members, 2)
    )


def _candidates(
    ratings: list[float], allowed: list[float], waits: list[float], seats: int
) -> list[tuple[float, float, int]]:
    """Every acceptable run of ``seats`` neighbours: (spread, -longest wait, start)."""
    found: list[tuple[float, float, int]] = []
    for i in range(len(ratings) - seats + 1):
        end = i + seats
        spread = ratings[end - 1] - ratings[i]
        if spread <= min(allowed[i:end]):
            found.append((spread, -max(waits[i:end]), i))
    return found


def _one_pass(
    players: list[Waiting],
    allowed: list[float],
    seats: int,
    blocked: Collection[frozenset[int]],
) -> list[list[Waiting]]:
    candidates = _candidates(
        [p.rating for p in players], allowed, [p.waited for p in players], seats
    )
    candidates.sort()
    used = [False] * len(players)
    groups: list[list[Waiting]] = []
    for _spread, _wait, i in candidates:
        if any(used[i : i + seats]):
            continue
        run = players[i : i + seats]
        if blocked and _blocked_inside(run, blocked):
            continue
        used[i : i + seats] = [True] * seats
        groups.append(run)
    return groups


def wave_groups(
    waiting: Sequence[Waiting],
    *,
    seats: int,
    gap: Gap,
    blocked: Collection[frozenset[int]] = frozenset(),
) -> list[list[Waiting]]:
    """Tables of ``seats`` players each, closest ratings first; the rest wait."""
    players = sorted(waiting, key=lambda p: (p.rating, -p.waited, p.id))
    allowed = [gap.allowed(p.waited) for p in players]
    groups: list[list[Waiting]] = []
    while len(players) >= seats:
        found = _one_pass(players, allowed, seats, blocked)
        if not found:
            break
        groups.extend(found)
        taken = {p.id for group in found for p in group}
        keep = [i for i, p in enumerate(players) if p.id not in taken]
        players = [players[i] for i in keep]
        allowed = [allowed[i] for i in keep]
    return groups
