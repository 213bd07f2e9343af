"""The grouping of one wave: pure, no Django, so golden cases can pin it down.

Players are sorted by rating; every run of ``seats`` neighbours is a candidate table
whose spread (highest minus lowest rating) must fit the allowed gap of each member,
which widens with the member's wait. Candidates are taken closest first (smallest
spread; then the longest wait), never reusing a player, never seating a blocked pair
together; the pass repeats over who is left until it finds nothing new.

A later pass only needs the runs that span a player taken by the pass before: a run
whose members were all neighbours already was a candidate then and was either too
wide or blocked, and still is. So the players sit in a linked list in rating order,
and each pass after the first looks only around the places where players left it:
one sort of ``n`` candidates, then work in proportion to the players seated. The
first pass works column by column over plain lists (``bench/matchmaker.py wave``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, count
from operator import attrgetter, sub
from typing import NamedTuple

# (spread, minus the longest wait, first member's place in rating order)
_Candidate = tuple[float, float, int]


@dataclass(frozen=True, slots=True)
class Gap:
    """Allowed rating gap: ``start`` at once, ``per_second`` more, up to ``cap``."""

    start: float
    per_second: float
    cap: float

    def allowed(self, waited: float) -> float:
        return min(self.cap, self.start + self.per_second * max(0.0, waited))

    def allowed_all(self, waits: Iterable[float]) -> list[float]:
        """``allowed`` of each wait, without a call per wait."""
        start, per_second, cap = self.start, self.per_second, self.cap
        raw = (start + per_second * w if w > 0.0 else start for w in waits)
        return [cap if a >= cap else a for a in raw]


class Waiting(NamedTuple):
    """One waiting search as the wave sees it."""

    id: int
    user_id: int
    rating: float
    waited: float


class _Line:
    """The players still ungrouped, in rating order, as a doubly linked list."""

    def __init__(self, players: list[Waiting], gap: Gap, seats: int) -> None:
        n = len(players)
        self.n = n
        self.seats = seats
        self.ratings: list[float] = list(map(attrgetter("rating"), players))
        self.waits: list[float] = list(map(attrgetter("waited"), players))
        self.allowed = gap.allowed_all(self.waits)
        self.users: list[int] = list(map(attrgetter("user_id"), players))
        self.nxt = list(range(1, n + 1))  # n: past the end
        self.prv = list(range(-1, n - 1))  # -1: before the start
        self.alive = [True] * n

    def run(self, start: int) -> list[int] | None:
        """``start`` and the next ``seats - 1`` players still here, if there are."""
        members = [start]
        j = start
        nxt, n = self.nxt, self.n
        for _ in range(self.seats - 1):
            j = nxt[j]
            if j >= n:
                return None
            members.append(j)
        return members

    def first_candidates(self) -> list[_Candidate]:
        """Every acceptable run of neighbours of the whole line, column by column."""
        ratings, allowed, waits, seats = (
            self.ratings,
            self.allowed,
            self.waits,
            self.seats,
        )
        size = self.n - seats + 1
        if size <= 0:
            return []
        spreads = list(map(sub, ratings[seats - 1 :], ratings))
        tightest, longest = allowed[:size], waits[:size]
        for j in range(1, seats):
            tightest = list(map(min, tightest, allowed[j:]))
            longest = list(map(max, longest, waits[j:]))
        return [
            (spread, -wait, i)
            for i, spread, fit, wait in zip(count(), spreads, tightest, longest)
            if spread <= fit
        ]

    def candidate(self, start: int) -> _Candidate | None:
        members = self.run(start)
        if members is None:
            return None
        spread = self.ratings[members[-1]] - self.ratings[start]
        if spread > min([self.allowed[m] for m in members]):
            return None
        return (spread, -max([self.waits[m] for m in members]), start)

    def blocked_inside(
        self, members: list[int], blocked: Collection[frozenset[int]]
    ) -> bool:
        users = self.users
        return any(
            frozenset((users[a], users[b])) in blocked
            for a, b in combinations(members, 2)
        )

    def take(
        self,
        ordered: Iterable[_Candidate],
        blocked: Collection[frozenset[int]],
    ) -> list[list[int]]:
        """The greedy choice over ``ordered`` (closest first), each player once."""
        free = self.alive[:]
        nxt, n, more = self.nxt, self.n, range(self.seats - 1)
        taken: list[list[int]] = []
        for _spread, _wait, start in ordered:
            if not free[start]:
                continue
            members = [start]
            j = start
            for _ in more:  # ``run``, inlined: this loop meets every candidate
                j = nxt[j]
                if j >= n or not free[j]:
                    break
                members.append(j)
            else:
                j = -1
            if j != -1:
                continue
            if blocked and self.blocked_inside(members, blocked):
                continue
            for m in members:
                free[m] = False
            taken.append(members)
        return taken

    def remove(self, taken: list[int]) -> set[int]:
        """Unlink ``taken``; the starts of the runs that now span a gap."""
        nxt, prv, alive, n = self.nxt, self.prv, self.alive, self.n
        for m in taken:
            alive[m] = False
            left, right = prv[m], nxt[m]
            if left >= 0:
                nxt[left] = right
            if right < n:
                prv[right] = left
        starts: set[int] = set()
        for m in taken:
            left = prv[m]
            while left >= 0 and not alive[left]:
                left = prv[left]
            if left < 0 or nxt[left] >= n:
                continue
            # Every run holding ``left`` and the player now after it.
            for _ in range(self.seats - 1):
                if left < 0:
                    break
                starts.add(left)
                left = prv[left]
        return starts


def wave_groups(
    waiting: Sequence[Waiting],
    *,
    seats: int,
    gap: Gap,
    blocked: Collection[frozenset[int]] = frozenset(),
) -> list[list[Waiting]]:
    """Tables of ``seats`` players each, closest ratings first; the rest wait."""
    players = _by_rating(waiting)
    line = _Line(players, gap, seats)
    groups: list[list[Waiting]] = []
    found = line.first_candidates()
    while found:
        found.sort()
        taken = line.take(found, blocked)
        if not taken:
            break
        groups.extend([players[m] for m in members] for members in taken)
        starts = line.remove([m for members in taken for m in members])
        found = [c for c in map(line.candidate, starts) if c is not None]
    return groups


def _by_rating(waiting: Sequence[Waiting]) -> list[Waiting]:
    """By (rating, -waited, id): stable sorts from the last key to the first."""
    players = sorted(waiting, key=attrgetter("id"))
    players.sort(key=attrgetter("waited"), reverse=True)
    players.sort(key=attrgetter("rating"))
    return players
