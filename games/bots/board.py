"""The public board of a view: ends, tiles played, and what a play would do.

Built from the view's ``public_state`` (the public part of the engine state), so
it needs nothing hidden. The layout arithmetic is the engine's own
(``games.engine.layout``), so the bots never disagree with the rules about where
a tile fits or what an end-sum is worth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Options
from games.engine.layout import attach, end_sum, ends_mask, open_layout
from games.engine.options import Rules, rules_for
from games.engine.scoring import end_points
from games.engine.state import End
from games.engine.tiles import tile_id

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Board:
    """The layout as a seat sees it, plus the resolved rules."""

    rules: Rules
    ends: tuple[End, ...]
    played: int
    spinner: int
    spun: bool


def rules_of(view: dict[str, Any]) -> Rules:
    """The resolved rules of the view's match."""
    return rules_for(Options.from_dict(view["public_state"]["options"]))


def board_of(view: dict[str, Any]) -> Board:
    """The board of a view."""
    ps = view["public_state"]
    return Board(
        rules=rules_of(view),
        ends=tuple((e[0], e[1], e[2]) for e in ps["ends"]),
        played=ps["played"],
        spinner=ps["spinner"],
        spun=ps["spun"],
    )


def after_play(board: Board, tile: int, end: str) -> Board:
    """The board once ``tile`` is on ``end`` (the caller knows it fits)."""
    layout = board.rules.layout
    if board.played == 0:
        ends, spinner = open_layout(layout, tile)
        return Board(board.rules, ends, 1, spinner, False)
    i = next(k for k, e in enumerate(board.ends) if e[0] == end)
    ends, spinner, spun = attach(layout, board.ends, i, tile, board.spinner, board.spun)
    return Board(board.rules, ends, board.played + 1, spinner, spun)


def points(board: Board) -> int:
    """End-sum points the board is worth right after a play (scoring variants)."""
    if not board.rules.end_scoring or board.played == 0:
        return 0
    return end_points(board.rules.scoring, end_sum(board.ends, board.played))


def fit_mask(board: Board) -> int:
    """Bitmask of every tile that could be played on the board now."""
    if board.played == 0:
        return board.rules.full
    return ends_mask(board.ends)


def hand_mask(view: dict[str, Any]) -> int:
    """The viewing seat's own tiles as a bitmask."""
    m = 0
    for a, b in view.get("hand", []):
        m |= 1 << tile_id(a, b)
    return m
