"""The pairing of one pass of a live arena: pure, no Django (golden cases pin it).

Every free player of the arena (joined, not paused, not at a table) is a
:class:`Free`. Tables are formed around *anchors*, the players who waited longest
first, each filled with the anchor's nearest neighbours in the standings order
(arena score, then rating): a free player is paired at once with the others free
at the closest score. A neighbour is taken only if they were not at the anchor's
or another member's last table, and if no two members have already met
``cap`` times in this arena. When the strict pass leaves players over, a second
pass lets last opponents meet again (no one else is free then); the cap still
holds. Whoever is left waits for the next pass (a few seconds later): no computer
player ever takes a seat. When the free players do not fill whole tables, those
who became free last sit out of the first pass, so the player left over is the
one who has just become free, never the same one pass after pass.

Two players the caller names as *apart* (accounts seen from one address or
device, RULES.md §5) never sit at one table, in either pass; both may play the
arena at other tables. In a team battle, two players of one *team* (their club)
never meet either: each table is a match between clubs.

Partnership arenas form four-player tables the same way, then choose the sides:
the split whose two partnerships have played together least so far (partners
rotate), then the most even in rating.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations

# How many places away in the standings a table's members may be found.
WINDOW = 24


@dataclass(frozen=True, slots=True)
class Free:
    """A free player as the pairing sees them."""

    user_id: int
    score: int
    rating: float
    waited: float  # seconds since they became free
    last_opponents: frozenset[int] = frozenset()
    opponents: Mapping[int, int] = field(default_factory=dict)  # games with each
    partners: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Pairing:
    """The tables of one pass (user ids in seat order) and who waits."""

    tables: list[list[int]]
    waiting: list[int]


def _met(a: Free, b: Free) -> int:
    return max(a.opponents.get(b.user_id, 0), b.opponents.get(a.user_id, 0))


Apart = frozenset[frozenset[int]]  # pairs of user ids never seated together


def _fits(
    member: Free,
    group: Sequence[Free],
    *,
    cap: int,
    strict: bool,
    apart: Apart,
    teams: Mapping[int, int],
) -> bool:
    team = teams.get(member.user_id)
    for other in group:
        if _met(member, other) >= cap:
            return False
        if team is not None and teams.get(other.user_id) == team:
            return False
        if frozenset((member.user_id, other.user_id)) in apart:
            return False
        if strict and (
            other.user_id in member.last_opponents
            or member.user_id in other.last_opponents
        ):
            return False
    return True


def _groups(
    players: Sequence[Free],
    *,
    seats: int,
    cap: int,
    strict: bool,
    apart: Apart,
    teams: Mapping[int, int],
) -> tuple[list[list[Free]], list[Free]]:
    """Tables around the longest waiting anchors; the players left over."""
    ordered = sorted(players, key=lambda p: (-p.score, -p.rating, p.user_id))
    place = {p.user_id: i for i, p in enumerate(ordered)}
    taken = [False] * len(ordered)
    groups: list[list[Free]] = []
    anchors = sorted(players, key=lambda p: (-p.waited, -p.score, p.user_id))
    for anchor in anchors:
        at = place[anchor.user_id]
        if taken[at]:
            continue
        group = [anchor]
        taken[at] = True
        picked = [at]
        for step in range(1, WINDOW + 1):
            for j in (at + step, at - step):  # nearest first; below first on a tie
                if len(group) == seats:
                    break
                if 0 <= j < len(ordered) and not taken[j]:
                    candidate = ordered[j]
                    fits = _fits(
                        candidate,
                        group,
                        cap=cap,
                        strict=strict,
                        apart=apart,
                        teams=teams,
                    )
                    if fits:
                        group.append(candidate)
                        taken[j] = True
                        picked.append(j)
            if len(group) == seats:
                break
        if len(group) == seats:
            groups.append(group)
        else:
            for j in picked:
                taken[j] = False
    left = [p for i, p in enumerate(ordered) if not taken[i]]
    return groups, left


def _sides(group: Sequence[Free]) -> list[int]:
    """Seat order for a partnership table (seats 0+2 against 1+3)."""
    a, b, c, d = group
    splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]

    def cost(split: tuple[tuple[Free, Free], tuple[Free, Free]]) -> tuple[int, float]:
        together = sum(x.partners.get(y.user_id, 0) for x, y in split)
        first, second = split
        balance = abs(sum(p.rating for p in first) - sum(p.rating for p in second))
        return together, balance

    (x, y), (z, w) = min(splits, key=cost)
    return [x.user_id, z.user_id, y.user_id, w.user_id]


def pairing_round(
    free: Sequence[Free],
    *,
    seats: int,
    partnership: bool = False,
    cap: int = 3,
    apart: Collection[tuple[int, int]] = (),
    teams: Mapping[int, int] | None = None,
) -> Pairing:
    """The tables to seat now among ``free`` players; see the module's docstring.

    ``apart``: pairs of players never seated at one table (linked accounts).
    ``teams``: a team battle's ``{user_id: club_id}``; teammates never meet.
    """
    team_of = teams or {}
    never = frozenset(frozenset(pair) for pair in apart)
    # Seats for all but ``extra`` players: those who became free last sit out of
    # the first pass, so a bye falls on them and not on the bottom of the standings.
    extra = len(free) % seats
    by_wait = sorted(free, key=lambda p: (p.waited, p.user_id))
    out, first = by_wait[:extra], by_wait[extra:]
    grouped = partial(_groups, seats=seats, cap=cap, apart=never, teams=team_of)
    groups, left = grouped(first, strict=True)
    if out:
        more, left = grouped([*left, *out], strict=True)
        groups += more
    if len(left) >= seats:
        more, left = grouped(left, strict=False)
        groups += more
    tables = [
        _sides(g) if partnership and seats == 4 else [p.user_id for p in g]
        for g in groups
    ]
    return Pairing(tables=tables, waiting=sorted(p.user_id for p in left))


def pairs_of(table: Sequence[int]) -> list[tuple[int, int]]:
    """Every two players of a table (each once)."""
    return list(combinations(table, 2))
