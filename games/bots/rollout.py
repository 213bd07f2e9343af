"""Fast playouts of a determinized hand to its end, and their value to a side.

The playout policy is a cheap greedy player for every seat: claim always, call
Muggins always, never close (Spider), otherwise play the tile that scores most
(scoring variants) and then the heaviest, doubles first, with an ``EPSILON``
chance of a random legal action so repeated playouts of one deal differ. It reads
the determinized state's ``ends`` and ``hands`` (engine internals, but only of a
*guessed* state the bot built itself) and moves only through ``legal_actions``
and ``apply``.
"""

from __future__ import annotations

import random

from games.engine import Action, State, apply, legal_actions
from games.engine.actions import CLAIM, MUGGINS, PLAY, PLAY_DOUBLES
from games.engine.layout import attach, end_sum, ends_mask
from games.engine.options import Rules, rules_for
from games.engine.scoring import end_points
from games.engine.state import PHASE_CLAIM, PHASE_CLOSE, PHASE_PLAY, End
from games.engine.tiles import IS_DOUBLE, PIPS, tile_id

EPSILON = 0.1
BLOCK = 10.0
_LIVE = (PHASE_PLAY, PHASE_CLAIM, PHASE_CLOSE)


def after(state: State, r: Rules, tile: int, end: str) -> tuple[End, ...]:
    """The ends once ``tile`` is on ``end`` (not the opening tile)."""
    ends = state.ends
    i = 0
    for k, e in enumerate(ends):
        if e[0] == end:
            i = k
            break
    return attach(r.layout, ends, i, tile, state.spinner, state.spun)[0]


def play_value(state: State, r: Rules, seat: int, tile: int, end: str) -> float:
    """The playout policy's liking for one play: weight shed, a double, points
    made (twice) and, above all, the next seat left without a play (partners:
    the reverse). It sees the guessed hands: playouts are perfect-information."""
    v = PIPS[tile] + (3.0 if IS_DOUBLE[tile] else 0.0)
    if state.played == 0:
        return v
    ends = after(state, r, tile, end)
    if r.end_scoring:
        v += 2 * end_points(r.scoring, end_sum(ends, state.played + 1))
    nxt = seat + 1 if seat + 1 < r.seats else 0
    if not state.hands[nxt] & ends_mask(ends):
        v += BLOCK if r.side_of[nxt] != r.side_of[seat] else -BLOCK
    return v


def greedy(state: State, r: Rules, acts: list[Action], rng: random.Random) -> Action:
    """The playout policy's choice among ``acts`` (more than one)."""
    first = acts[0]
    if first.type == CLAIM:
        return first
    for a in acts:
        if a.type == MUGGINS:
            return a
    if state.phase == PHASE_CLOSE:
        return acts[-1]  # continue: close nothing
    if rng.random() < EPSILON:
        return acts[rng.randrange(len(acts))]
    best = first
    best_v = -1.0
    seat = state.turn
    for a in acts:
        if a.type == PLAY:
            assert a.tile is not None and a.end is not None
            v = play_value(state, r, seat, tile_id(*a.tile), a.end) + rng.random()
        elif a.type == PLAY_DOUBLES:
            v = sum(p[0][0] * 2 + 3.0 for p in a.plays) + rng.random()
        else:
            continue
        if v > best_v:
            best, best_v = a, v
    return best


def playout(state: State, rng: random.Random) -> tuple[State, int]:
    """Play ``state`` to the end of its hand; return it and the steps taken."""
    r = rules_for(state.options)
    steps = 0
    while state.phase in _LIVE:
        seat = state.turn
        acts = legal_actions(state, seat)
        a = acts[0] if len(acts) == 1 else greedy(state, r, acts, rng)
        state = apply(state, seat, a)
        steps += 1
    return state, steps


def hand_value(
    final: State, start_scores: tuple[int, ...], side: int, r: Rules
) -> float:
    """What the hand's outcome is worth to ``side`` (higher is better).

    Decision: in the scoring variants (All Fives, Fives and Threes, Fives) the
    value is the point difference made from the decision on (own side minus the
    mean of the others); elsewhere it is the hand won (1), tied (0.5) or lost
    (0), plus a hundredth of the point difference as a tie-break (Spider's points
    are penalties, so there the sign is reversed).
    """
    gains = [a - b for a, b in zip(final.scores, start_scores, strict=True)]
    mine = gains[side]
    others = (sum(gains) - mine) / max(1, len(gains) - 1)
    diff = mine - others
    if r.end_scoring:
        return diff
    if r.scoring == "spider":
        diff = -diff
    w = final.last_winner
    win = 0.5 if w < 0 else (1.0 if r.side_of[w] == side else 0.0)
    return win + 0.01 * diff


__all__ = ["greedy", "hand_value", "play_value", "playout"]
