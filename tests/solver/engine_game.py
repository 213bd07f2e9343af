"""The tests' reference game: one deal on the engine's own states.

Each move is ``games.engine.apply`` of one of ``legal_actions`` (a Muggins
call is never one: the search claims every scoring play, so no window opens
inside it; ``games.solver.game.settle`` calls one already open at the way in).
Exact by construction and several times dearer a node than the bit-mask games
of ``games.solver``, which the tests hold to it move for move and value for
value (``DoubleDummy(state, game=StateGame(state))``).

The transposition key reads the state's hands, stock, ends and phase fields:
engine internals, read-only, of states this module built by ``apply``.
"""

from __future__ import annotations

from collections.abc import Hashable

from games.engine import Action, State, apply, legal_actions
from games.engine.actions import MUGGINS, PLAY, PLAY_DOUBLES
from games.engine.options import rules_for
from games.engine.tiles import IS_DOUBLE, PIPS, tile_id
from games.solver.game import (
    Child,
    Finish,
    Points,
    delta,
    finish_of,
    over,
    plays_left,
    settle,
    unbounded,
)

OUT_BONUS = 1000  # move ordering: going out first


class StateGame:
    """One deal as engine states (``model.DealGame``)."""

    def __init__(self, state: State) -> None:
        self.r = rules_for(state.options)
        self.n_sides = self.r.n_sides
        self.side_of = self.r.side_of
        self.sign = -1 if self.r.scoring == "spider" else 1

    def mover_side(self, s: State) -> int:
        return self.side_of[s.turn]

    def plays_left(self, s: State) -> int:
        return plays_left(self.r, s.hands, len(s.stock))

    def key(self, s: State) -> Hashable:
        return (
            s.hands,
            s.stock,
            s.ends,
            s.turn,
            s.phase,
            s.to_close,
            s.played,
            s.spinner,
            s.spun,
            s.opening if not s.played else (),
        )

    def _child(
        self, before: State, action: Action | None, after: State
    ) -> Child[State]:
        after = settle(self.r, after)
        pts = delta(after, before)
        placed = after.played - before.played
        if over(after):
            fin = finish_of(after) if after is not before else Finish("over")
            return action, pts, None, fin, placed
        return action, pts, after, None, placed

    def enter(self, state: State) -> Child[State]:
        if over(state):
            return None, (0,) * self.n_sides, None, Finish("over"), 0
        state = unbounded(state)
        return self._child(state, None, state)

    def after(self, state: State, seat: int, action: Action) -> Child[State]:
        state = unbounded(state)
        return self._child(state, action, apply(state, seat, action))

    def children(self, s: State) -> list[Child[State]]:
        seat = s.turn
        side = self.side_of[seat]
        scored: list[tuple[int, int, Child[State]]] = []
        for i, a in enumerate(legal_actions(s, seat)):
            if a.type == MUGGINS:
                continue
            c = self._child(s, a, apply(s, seat, a))
            scored.append((-self._guess(side, a, c[1], c[3]), i, c))
        scored.sort(key=lambda x: (x[0], x[1]))
        return [c for _, _, c in scored]

    def first(self, s: State) -> Child[State]:
        """``children(s)[0]``."""
        return self.children(s)[0]

    def _guess(self, side: int, a: Action, pts: Points, fin: Finish | None) -> int:
        """The mover's liking for a move: going out, points for its side
        against the others, then weight shed, doubles first."""
        sign = self.sign
        v = 4 * sign * pts[side] - sign * (sum(pts) - pts[side])
        v *= 10
        if fin is not None and fin.reason == "out":
            v += OUT_BONUS
        if a.type == PLAY and a.tile is not None:
            t = tile_id(*a.tile)
            v += PIPS[t] + (3 if IS_DOUBLE[t] else 0)
        elif a.type == PLAY_DOUBLES:
            v += sum(p[0][0] * 2 + 3 for p in a.plays)
        return v


Position = State

__all__ = ["Position", "StateGame"]
