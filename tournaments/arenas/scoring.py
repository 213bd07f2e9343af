"""Arena points for one finished game: pure, no Django (golden cases pin it).

Points go by finishing place among the table's sides (players, or partnerships):

=====  ====================
sides  place 1, 2, 3, 4
=====  ====================
2      2, 0
3      3, 1, 0
4      4, 2, 1, 0
=====  ====================

A *win* is a first place held alone. Two wins in a row light a streak: from then
on each win counts double, until a game that is not a win. A first place shared
with another side (a tie) scores half a win, rounded down, and ends the streak,
as any non-win does. A forfeited seat is last and scores nothing.

Performance is the rating the results are worth: the opponents' mean rating plus
400 for a win, minus 400 for a last place, in between by place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PLACE_POINTS: dict[int, tuple[int, ...]] = {
    2: (2, 0),
    3: (3, 1, 0),
    4: (4, 2, 1, 0),
}
STREAK_FROM = 2  # wins in a row after which a win counts double
PERFORMANCE_SPREAD = 400


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's game as the arena counts it."""

    points: int
    streak: int  # the wins in a row after this game
    win: bool
    doubled: bool


def game_outcome(
    *, place: int, sides: int, shared: bool, streak: int, forfeited: bool = False
) -> Outcome:
    """The points of a finish at ``place`` of ``sides`` with ``streak`` wins in a
    row before it; ``shared`` says another side holds the same place."""
    table = PLACE_POINTS[sides]
    if forfeited:
        return Outcome(points=0, streak=0, win=False, doubled=False)
    base = table[min(place, sides) - 1]
    if place == 1 and not shared:
        doubled = streak >= STREAK_FROM
        return Outcome(
            points=base * 2 if doubled else base,
            streak=streak + 1,
            win=True,
            doubled=doubled,
        )
    if place == 1:
        return Outcome(points=base // 2, streak=0, win=False, doubled=False)
    return Outcome(points=base, streak=0, win=False, doubled=False)


def game_performance(*, place: int, sides: int, opponents: Sequence[float]) -> int:
    """The rating this finish is worth against ``opponents``' ratings."""
    mean = sum(opponents) / len(opponents) if opponents else 1500.0
    swing = PERFORMANCE_SPREAD * (sides + 1 - 2 * min(place, sides)) / (sides - 1)
    return round(mean + swing)


def ranks_of(scores: Sequence[tuple[int, int, int | None, int]]) -> list[int]:
    """Final ranks for ``(user_id, score, performance, games)`` rows in the order
    given: by score, then performance, then fewer games; ties share a rank."""

    def key(row: tuple[int, int, int | None, int]) -> tuple[int, int, int]:
        _user, score, performance, games = row
        return (-score, -(performance or 0), games)

    order = sorted(range(len(scores)), key=lambda i: key(scores[i]))
    ranks = [0] * len(scores)
    previous: tuple[int, int, int] | None = None
    rank = 0
    for position, i in enumerate(order, start=1):
        k = key(scores[i])
        if k != previous:
            rank, previous = position, k
        ranks[i] = rank
    return ranks
