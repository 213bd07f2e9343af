"""The pairing of one round of a Swiss event, and its standings: pure, no Django
(golden cases pin both; docs/tournaments.md, "Swiss events", explains them).

**A round's pairing.** The players still in the event and present at the round's
start are ranked by score, then rating, then id (the entry order). With an odd
number, the lowest-ranked player who has not had a bye sits out and scores a win
(one bye per player at most; with everyone byed already, the lowest-ranked). The
rest are paired score group by score group from the top: a group (with the players
who floated down into it from the group above, first) is split into a top half and
a bottom half, and the top half's ``i``-th player meets the bottom half's ``i``-th,
the bottom half's order changed as little as it takes so that no two players meet
twice. A group that cannot be paired that way, or has an odd count, sends its
lowest-ranked players down into the next group; the last group, if it cannot be
paired, is merged with the one above it and paired again, up to the whole field.
Only a field where no pairing without a repeat exists at all (more rounds than the
players allow) is paired with repeats, as few as the search finds, and says so.

**Seats.** In two-seat games the seat that opens matters: each pair's first seat
goes to the player who has had it less often; on a tie, to the one who did not
have it last round; then to the higher-ranked.

**Standings.** A win is 1 point, a tie ½, a loss and a forfeit loss 0; a bye and a
forfeit win are 1. The tie-breaks, in order: *Buchholz*, the sum of the final
scores of the opponents met (a bye adds nothing); then *Sonneborn–Berger*, the sum
of the final scores of the opponents beaten plus half those of the opponents tied
with; then rating, then entry order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

# How many candidate pairs one round's search may try before it gives up on a
# group and floats its lowest players down: the same result on every machine.
SEARCH_BUDGET = 200_000

WIN, TIE, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the pairing of a round sees them."""

    user_id: int
    score: Fraction
    rating: float
    entry: int  # the order of joining: the last tie-break
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    first_seats: int = 0  # games played in the first seat
    second_seats: int = 0
    last_seat: int | None = None  # 0 or 1 in the last game played


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """The games of a round (user ids in seat order), the bye, and how many of the
    games pair players who had met (0 unless no other pairing exists)."""

    games: list[tuple[int, int]]
    bye: int | None
    repeats: int


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.entry))


def pair_round(entrants: Sequence[Entrant]) -> RoundPairing:
    """Pair one round of ``entrants`` (the players in the event and present)."""
    order = ranked(entrants)
    bye = None
    if len(order) % 2:
        byeless = [e for e in order if not e.had_bye]
        bye = (byeless or order)[-1]
        order = [e for e in order if e is not bye]
    search = _Search(SEARCH_BUDGET)
    pairs = _by_groups(order, search)
    repeats = 0
    if pairs is None:
        pairs, repeats = _with_repeats(order)
    rank = {e.user_id: i for i, e in enumerate(order)}
    games = [_seated(a, b, rank) for a, b in pairs]
    return RoundPairing(games=games, bye=bye.user_id if bye else None, repeats=repeats)


class _Search:
    def __init__(self, budget: int) -> None:
        self.left = budget

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _met(a: Entrant, b: Entrant) -> bool:
    return b.user_id in a.opponents or a.user_id in b.opponents


def _by_groups(
    order: list[Entrant], search: _Search
) -> list[tuple[Entrant, Entrant]] | None:
    """Score groups from the top, floaters carried down; ``None`` if no pairing
    without a repeat was found within the budget."""
    groups = [list(g) for _, g in groupby(order, key=lambda e: e.score)]
    paired: list[tuple[list[Entrant], list[tuple[Entrant, Entrant]]]] = []
    carried: list[Entrant] = []
    index = 0
    while index < len(groups):
        players = carried + groups[index]
        last = index == len(groups) - 1
        pairs = _group_pairs(players, len(carried), search, keep_all=last)
        if pairs is None:  # the last group: merge it with the one above, again
            if not paired:
                return None
            above, _ = paired.pop()
            groups[index] = above + groups[index]  # ``above`` holds its floaters
            carried = []
            continue
        paired.append((players, pairs))
        used = {e.user_id for pair in pairs for e in pair}
        carried = [e for e in players if e.user_id not in used]
        index += 1
    return [pair for _, pairs in paired for pair in pairs]


def _group_pairs(
    players: list[Entrant], floaters: int, search: _Search, *, keep_all: bool
) -> list[tuple[Entrant, Entrant]] | None:
    """Pairs of ``players`` (ranked, the ``floaters`` from above first): each
    floater against the highest-ranked of the group it has not met, then the rest
    top half against bottom half, the bottom half permuted as little as it takes.
    The last group (``keep_all``) pairs everyone or gives ``None``; another floats
    its lowest-ranked down, one if the count is odd, then two more at a time until
    a pairing is found."""
    size = len(players) - len(players) % 2
    while True:
        pairs = _floaters_first(players[:size], floaters, search) if size else []
        if pairs is not None:
            return pairs
        if keep_all:
            return None
        size -= 2


def _floaters_first(
    players: list[Entrant], floaters: int, search: _Search
) -> list[tuple[Entrant, Entrant]] | None:
    floating = players[: min(floaters, len(players) // 2)]
    residents = players[len(floating) :]
    pairs: list[tuple[Entrant, Entrant]] = []

    def place(i: int, rest: list[Entrant]) -> list[tuple[Entrant, Entrant]] | None:
        if i == len(floating):
            return _halves(rest, search)
        for k, other in enumerate(rest):
            if _met(floating[i], other) or not search.spend():
                continue
            pairs.append((floating[i], other))
            found = place(i + 1, rest[:k] + rest[k + 1 :])
            if found is not None:
                return found
            pairs.pop()
        return None

    if floating:
        found = place(0, residents)
        if found is not None:
            return pairs + found
    return _halves(players, search)


def _halves(
    players: list[Entrant], search: _Search
) -> list[tuple[Entrant, Entrant]] | None:
    half = len(players) // 2
    top, bottom = players[:half], players[half:]
    taken = [False] * len(bottom)
    pairs: list[tuple[Entrant, Entrant]] = []

    def place(i: int) -> bool:
        if i == len(top):
            return True
        # The bottom half in its order: the first arrangement without a repeat in
        # lexicographic order is the one that moves the fewest and lowest players.
        for j in range(len(bottom)):
            if taken[j] or _met(top[i], bottom[j]):
                continue
            if not search.spend():
                return False
            taken[j] = True
            pairs.append((top[i], bottom[j]))
            if place(i + 1):
                return True
            pairs.pop()
            taken[j] = False
        return False

    if place(0):
        return pairs
    # Top against bottom failed: any pairing inside the group without a repeat.
    return _any_pairs(players, search)


def _any_pairs(
    players: list[Entrant], search: _Search
) -> list[tuple[Entrant, Entrant]] | None:
    free = list(players)
    pairs: list[tuple[Entrant, Entrant]] = []

    def place() -> bool:
        if not free:
            return True
        first = free.pop(0)
        for k, other in enumerate(free):
            if _met(first, other) or not search.spend():
                continue
            free.pop(k)
            pairs.append((first, other))
            if place():
                return True
            pairs.pop()
            free.insert(k, other)
        free.insert(0, first)
        return False

    return pairs if place() else None


def _with_repeats(order: list[Entrant]) -> tuple[list[tuple[Entrant, Entrant]], int]:
    """The last resort: adjacent players, each with the nearest not yet met where
    one is left, counting the pairs that meet again."""
    free = list(order)
    pairs = []
    repeats = 0
    while free:
        first = free.pop(0)
        k = next((k for k, o in enumerate(free) if not _met(first, o)), 0)
        other = free.pop(k)
        repeats += _met(first, other)
        pairs.append((first, other))
    return pairs, repeats


def _seated(a: Entrant, b: Entrant, rank: dict[int, int]) -> tuple[int, int]:
    """The pair in seat order: the first seat to who has had it less."""

    def key(e: Entrant) -> tuple[int, int, int]:
        return (e.first_seats - e.second_seats, int(e.last_seat == 0), rank[e.user_id])

    first, second = sorted((a, b), key=key)
    return first.user_id, second.user_id


# --- standings


@dataclass(frozen=True, slots=True)
class Game:
    """One game of an event as its standings see it: ``second`` None for a bye;
    ``points`` what ``first`` scored (1, ½, 0); a forfeit scores like a win and a
    loss, and counts as a meeting for the no-repeat rule (docs/tournaments.md)."""

    first: int
    second: int | None
    points: Fraction


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    score: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    rank: int


def standings(
    players: Sequence[tuple[int, float, int]], games: Iterable[Game]
) -> list[Standing]:
    """The ranked standings of ``players`` (``(user id, rating, entry order)``)
    after ``games``."""
    score = {user_id: Fraction(0) for user_id, _, _ in players}
    results: dict[int, list[tuple[int, Fraction]]] = {uid: [] for uid in score}
    for game in games:
        score[game.first] += game.points
        if game.second is None:
            continue
        score[game.second] += WIN - game.points
        results[game.first].append((game.second, game.points))
        results[game.second].append((game.first, WIN - game.points))
    buchholz = {
        uid: sum((score[o] for o, _ in met), Fraction(0))
        for uid, met in results.items()
    }
    berger = {
        uid: sum((score[o] * points for o, points in met), Fraction(0))
        for uid, met in results.items()
    }
    rating = {uid: (r, entry) for uid, r, entry in players}
    order = sorted(
        score,
        key=lambda u: (
            -score[u],
            -buchholz[u],
            -berger[u],
            -rating[u][0],
            rating[u][1],
        ),
    )
    return [
        Standing(u, score[u], buchholz[u], berger[u], rank)
        for rank, u in enumerate(order, start=1)
    ]
