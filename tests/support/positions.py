"""Positions for engine and bot tests: hand-built (``rig``) or reached by seeded play.

``rig`` deals exact hands; ``advance`` plays a few random legal moves from a state;
``seeded_positions`` walks hand 1 of each seed, yielding every decision on the way.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import (
    Action,
    Options,
    State,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
)
from games.engine.tiles import tile_id

Pair = tuple[int, int]
LIVE = ("play", "claim", "close")


def mask(tiles: list[Pair]) -> int:
    m = 0
    for a, b in tiles:
        m |= 1 << tile_id(a, b)
    return m


def rig(
    variant: str,
    hands: list[list[Pair]],
    *,
    stock: list[Pair] | None = None,
    turn: int = 0,
    forced: Pair | None = None,
    scores: tuple[int, ...] | None = None,
    **opts: Any,
) -> State:
    """A fresh hand with these exact hands and stock; ``turn`` opens."""
    o = options_for(variant, seats=len(hands), **opts)
    s = new_match(o, 0).copy()
    s.hands = tuple(mask(h) for h in hands)
    s.stock = tuple(tile_id(a, b) for a, b in (stock or []))
    s.turn = turn
    s.opening = (tile_id(*forced),) if forced else ()
    s.ends = ()
    s.played = 0
    s.log = ()
    s.n_events = 0
    if scores is not None:
        s.scores = scores
    return s


def play(s: State, seat: int, tile: Pair, end: str) -> State:
    return apply(s, seat, Action.play(tile, end))


def ends(s: State) -> dict[str, int]:
    return {e[0]: e[1] for e in s.ends}


def advance(s: State, moves: int, seed: int) -> State:
    """``moves`` random legal actions of the seat to move (stops at hand end)."""
    rng = random.Random(seed)
    for _ in range(moves):
        if s.phase not in LIVE:
            break
        seat = current_seat(s)
        assert seat is not None
        s = apply(s, seat, rng.choice(legal_actions(s, seat)))
    return s


@dataclass(frozen=True)
class Position:
    """A decision met on a seeded walk: the state, who moves, what is legal, and
    the walk's own ``rng`` (a test may draw from it; the walk draws next)."""

    state: State
    seat: int
    legal: list[Action]
    rng: random.Random


def seeded_positions(
    options: Options,
    seeds: Iterable[int],
    *,
    phases: tuple[str, ...] = ("play", "claim"),
) -> Iterator[Position]:
    """Every decision of hand 1 of each seed, played by random legal moves.

    For each seed: ``new_match(options, seed)`` and ``random.Random(seed)``; while
    the phase is one of ``phases``, yield the position, then play
    ``rng.choice(legal)`` for the seat to move.
    """
    for seed in seeds:
        s = new_match(options, seed)
        rng = random.Random(seed)
        while s.phase in phases:
            seat = current_seat(s)
            assert seat is not None
            legal = legal_actions(s, seat)
            yield Position(s, seat, legal, rng)
            s = apply(s, seat, rng.choice(legal))
