"""The one perfect-information search of a hand: every tile face up.

Pure Python like ``games.engine``: no Django, no I/O, no clock in what is
computed (it also runs in the browser under Pyodide). The hard player
(``games.bots.hard``) searches its sampled deals with it and the hand review
(``games.review``) solves its positions with it.

Modules: ``game`` (what the search walks, and the conventions of perfect
play), ``line`` and ``layouts`` (one deal on bit masks: the line layouts; Cross,
Grand Cross, the Fives spinner and Spider), ``scoring`` (the hand's bonus and
end-sums on bit masks) and ``search`` (alpha-beta for two sides, max^n for
more, a transposition table, move ordering and a node allowance).
"""

from games.solver.game import Finish, Points
from games.solver.search import (
    DEFAULT_MAX_NODES,
    DoubleDummy,
    Objective,
    OutOfNodes,
    Search,
    Solution,
    gains,
    game_for,
    margin,
    preferred,
    solve,
)

__all__ = [
    "DEFAULT_MAX_NODES",
    "DoubleDummy",
    "Finish",
    "Objective",
    "OutOfNodes",
    "Points",
    "Search",
    "Solution",
    "game_for",
    "gains",
    "margin",
    "preferred",
    "solve",
]
