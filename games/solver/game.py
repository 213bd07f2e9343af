"""What the search works on: a hand with every tile known.

A ``DealGame`` is one deal seen by the search: positions, the moves from each
(with the points they make and how the hand ends), a key for the
transposition table, and the way in from an engine ``State`` (``enter``,
``after``, given by ``EngineEntry``). Two implementations, both on bit masks:
``line.LineGame`` (the line layouts) and ``layouts.LayoutGame`` (Cross, Grand
Cross, the Fives spinner, Spider); the tests hold both to the engine's own
states move for move and value for value.

The conventions both follow (``search``'s module docstring tells why):

* the hand is played to its end whatever the match scores: positions enter
  the search with scores no target can be reached from (``unbounded``), so
  points scored during the hand never end the match there;
* a scoring play is claimed at once (``settle``);
* a Muggins window open where the search starts is called at once by the
  scorer's first opponent in turn order (``settle``);
* depth is counted in tiles placed, so a forced draw or pass costs none.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from operator import add
from typing import Any, Protocol, TypeVar

from games.engine import Action, State, apply, from_json, to_json
from games.engine.options import Rules
from games.engine.state import (
    PHASE_CLAIM,
    PHASE_HAND_OVER,
    PHASE_MATCH_OVER,
    PHASE_PLAY,
)
from games.engine.variants import STOCK_NONE

Points = tuple[int, ...]
"""Points per side (the engine's score units; Spider: penalty points)."""


@dataclass(frozen=True, slots=True)
class Finish:
    """How a line of play ends: ``reason`` is "out" (``seat`` played its last
    tile), "blocked" (nobody can play) or "over" (the hand had already ended
    where the search started)."""

    reason: str
    seat: int | None = None


BLOCKED = Finish("blocked")
OUT_BONUS = 1000  # move ordering: going out first
FAR = -(10**9)  # a match score no hand brings to any target


def points_add(a: Points, b: Points) -> Points:
    """Two sides' points added side by side."""
    return tuple(map(add, a, b))


def union(hands: Iterable[int]) -> int:
    """Every tile some hand holds, as one mask."""
    u = 0
    for h in hands:
        u |= h
    return u


P = TypeVar("P")
Move = object
Child = tuple[Move, Points, P | None, Finish | None, int]
"""One move: (the move, the points each side makes by it, the next position or
``None`` when the hand ends by it, how it ends or ``None``, tiles it places)."""


class Game(Protocol[P]):
    """A hand with every tile known, as the search walks it."""

    n_sides: int

    def mover_side(self, pos: P, /) -> int:
        """The side of the seat that decides at ``pos``."""
        ...

    def key(self, pos: P, /) -> Hashable:
        """Everything ``pos``'s future depends on (the transposition key)."""
        ...

    def children(self, pos: P, /) -> list[Child[P]]:
        """Every move at ``pos``, the game's guess of the mover's best first.
        There is always at least one (a forced draw or pass is one)."""
        ...

    def first(self, pos: P, /) -> Child[P]:
        """``children(pos)[0]``: the greedy move of a heuristic playout."""
        ...

    def plays_left(self, pos: P, /) -> int:
        """An upper bound on the tiles still to be placed from ``pos`` (tiles in
        hands plus the drawable stock), which each placed tile lowers by one."""
        ...


class DealGame(Game[P], Protocol[P]):
    """A ``Game`` reached from engine states of one deal."""

    def enter(self, state: State, /) -> Child[P]:
        """``state`` as a root move (move ``None``; its points are those of the
        conventions applied on the way in: a pending claim, an open Muggins)."""
        ...

    def after(self, state: State, seat: int, action: Action, /) -> Child[P]:
        """The root move ``action`` of ``seat`` at ``state``."""
        ...


# ---------------------------------------------------------------- shared helpers


def plays_left(r: Rules, hands: tuple[int, ...], stock_len: int) -> int:
    """Tiles in hands plus the stock's drawable tiles."""
    n = 0
    for h in hands:
        n += h.bit_count()
    if r.stock != STOCK_NONE and stock_len > r.reserve:
        n += stock_len - r.reserve
    return n


def unbounded(state: State) -> State:
    """``state`` with match scores so far below any target that nothing in the
    hand ends the match (the points each side makes are unchanged)."""
    if over(state):
        return state
    d = to_json(state)
    d["scores"] = [FAR] * len(state.scores)
    return from_json(d)


def first_opponent(r: Rules, seat: int) -> int:
    """The first seat after ``seat`` in turn order on another side."""
    for k in range(1, r.seats):
        s = (seat + k) % r.seats
        if r.side_of[s] != r.side_of[seat]:
            return s
    raise ValueError("no opponent")


def settle(r: Rules, state: State) -> State:
    """``state`` once a pending claim is claimed and an open Muggins window
    called by the scorer's first opponent (the search's conventions)."""
    if state.phase == PHASE_CLAIM:
        state = apply(state, state.turn, Action.claim(state.pending))
    if state.phase == PHASE_PLAY and state.muggins is not None:
        state = apply(state, first_opponent(r, state.muggins[0]), Action.muggins())
    return state


def over(state: State) -> bool:
    """Whether the hand has ended (or the match with it)."""
    return state.phase in (PHASE_HAND_OVER, PHASE_MATCH_OVER)


def finish_of(state: State) -> Finish:
    """How the hand of a finished ``state`` ended."""
    res = state.hand_result or {}
    reason = res.get("reason", "over")
    return Finish(reason, res.get("out_seat") if reason == "out" else None)


def delta(after: State, before: State) -> Points:
    """The points each side made from ``before`` to ``after``."""
    return tuple(a - b for a, b in zip(after.scores, before.scores, strict=True))


class EngineEntry:
    """The way in from engine states, for a game with a ``position`` of a live
    state of its deal (play, claim or close phase, conventions applied)."""

    r: Rules
    n_sides: int

    def position(self, s: State, /) -> Any:
        raise NotImplementedError

    def _root(self, before: State, action: Action | None, after: State) -> Child[Any]:
        after = settle(self.r, after)
        pts = delta(after, before)
        placed = after.played - before.played
        if over(after):
            fin = finish_of(after) if after is not before else Finish("over")
            return action, pts, None, fin, placed
        return action, pts, self.position(after), None, placed

    def enter(self, state: State) -> Child[Any]:
        """``state`` as a root move (``DealGame.enter``)."""
        if over(state):
            return None, (0,) * self.n_sides, None, Finish("over"), 0
        state = unbounded(state)
        return self._root(state, None, state)

    def after(self, state: State, seat: int, action: Action) -> Child[Any]:
        """The root move ``action`` of ``seat`` at ``state``
        (``DealGame.after``)."""
        state = unbounded(state)
        return self._root(state, action, apply(state, seat, action))


__all__ = [
    "FAR",
    "EngineEntry",
    "Child",
    "DealGame",
    "Finish",
    "Game",
    "Move",
    "Points",
    "delta",
    "finish_of",
    "first_opponent",
    "over",
    "plays_left",
    "settle",
    "unbounded",
]
