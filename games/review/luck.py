"""The luck meter: how strong each side's deal was, under equal play.

A hand's deal (every hand and the stock's order, known once the hand is over)
is valued by the double-dummy solver from the hand's first decision: the points
each side makes when every seat plays perfectly with every tile known. That is
the deal's expected result under *equal* play, since no seat plays better than
another there; a side's *luck* is its margin in that result (its points minus
the mean of the other sides'), which is its result against the table's
average: the margins of a table add up to zero. The draws are part of it (the
stock's order is part of the deal), and so is the seat: holding the double that
opens is luck too.

Over a match the luck of each hand adds up. A depth-limited solve (large
tables, the first decision of a hand) is labelled (``Luck.exact``) like any
other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.engine import State
from games.engine.options import rules_for
from games.solver.search import DEFAULT_MAX_NODES, DoubleDummy, Solution, margin

LIVE = ("play", "claim", "close")


@dataclass(frozen=True, slots=True)
class Luck:
    """One hand's deal under equal play: ``points`` per side (the double-dummy
    result), ``luck`` per side (each side's margin: its points minus the mean
    of the others'), and whether the solve was exact."""

    points: tuple[int, ...]
    luck: tuple[float, ...]
    exact: bool
    depth: int | None
    solution: Solution


def deal_luck(
    start: State, *, max_nodes: int = DEFAULT_MAX_NODES, max_depth: int | None = None
) -> Luck:
    """The luck of every side in the hand that ``start`` (its first decision,
    with the whole deal) begins."""
    if start.phase not in LIVE:
        raise ValueError("the luck of a deal is read at a decision of its hand")
    r = rules_for(start.options)
    spider = r.scoring == "spider"
    sol = DoubleDummy(start, max_nodes=max_nodes, max_depth=max_depth).solve(start)
    luck = tuple(margin(sol.points, side, spider) for side in range(r.n_sides))
    return Luck(sol.points, luck, sol.exact, sol.depth, sol)


def match_luck(hands: Iterable[Luck]) -> tuple[float, ...]:
    """Each side's luck added up over the hands of a match."""
    total: list[float] = []
    for h in hands:
        if not total:
            total = [0.0] * len(h.luck)
        for i, x in enumerate(h.luck):
            total[i] += x
    return tuple(total)


__all__ = ["Luck", "deal_luck", "match_luck"]
