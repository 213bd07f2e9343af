"""Hand-built positions for golden tests."""

from __future__ import annotations

from typing import Any

from games.engine import Action, State, apply, new_match, options_for
from games.engine.tiles import tile_id

Pair = tuple[int, int]


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
