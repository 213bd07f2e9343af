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


def _one_pass(
    players: list[Waiting],
    seats: int,
    gap: Gap,
    blocked: Collection[frozenset[int]],
) -> list[list[Waiting]]:
    candidates: list[tuple[float, float, int]] = []
    for i in range(len(players) - seats + 1):
        run = players[i : i + seats]
        spread = run[-1].rating - run[0].rating
        if spread <= min(gap.allowed(p.waited) for p in run):
            candidates.append((spread, -max(p.waited for p in run), i))
    candidates.sort()
    used: set[int] = set()
    groups: list[list[Waiting]] = []
    for _spread, _wait, i in candidates:
        if any(j in used for j in range(i, i + seats)):
            continue
        run = players[i : i + seats]
        if blocked and _blocked_inside(run, blocked):
            continue
        used.update(range(i, i + seats))
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
    groups: list[list[Waiting]] = []
    while len(players) >= seats:
        found = _one_pass(players, seats, gap, blocked)
        if not found:
            break
        groups.extend(found)
        taken = {p.id for group in found for p in group}
        players = [p for p in players if p.id not in taken]
    return groups
