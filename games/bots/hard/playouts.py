"""``hard``'s search where the layout is not a line, or a candidate is not a
plain play (``cross``, ``grand_cross``, ``fives``, ``spider``): engine playouts.

``playout_search`` builds full states with the engine's ``determinize`` (one
sampled deal each, ``deals.sample_state``) and, for every candidate, applies it
and plays the hand out with the greedy policy below; all candidates share the
deal and the playout's random stream (common random numbers: the comparison is
between moves, not luck). These playouts are few and noisy, so a candidate
leaves ``medium``'s favourite only when it wins by more than ``GATE_Z``
standard errors of the paired difference (``means.gated_means``; it measured
stronger in every one of these layouts: ``bench/bot_tournament.py cross
--pairs hard:medium``, likewise ``grand_cross`` and ``spider``).

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
import time
from random import Random

from games.bots.board import rules_of
from games.bots.hard.budget import Search, View, safety_deadline
from games.bots.hard.deals import sample_state
from games.bots.hard.means import gated_means
from games.bots.knowledge import knowledge_of
from games.engine import Action, State, apply, legal_actions
from games.engine.actions import CLAIM, MUGGINS, PLAY, PLAY_DOUBLES
from games.engine.layout import attach, end_sum, ends_mask
from games.engine.options import Rules, rules_for
from games.engine.scoring import end_points
from games.engine.state import PHASE_CLAIM, PHASE_CLOSE, PHASE_PLAY, End
from games.engine.tiles import IS_DOUBLE, PIPS, tile_id
from games.engine.variants import GRAND_CROSS

# Engine steps per ms of budget (``bench/bot_tournament.py cross --pairs
# hard:medium``: a CPU p95 under the budget on the calibration machine).
STEPS_PER_MS = 50.0  # cross, fives, spider
STEPS_PER_MS_GRAND_CROSS = 25.0  # many ends: the dearest steps
MIN_SAMPLES = 4
MAX_SAMPLES = 2_000
GATE_Z = 2.0  # standard errors a candidate must win by to leave medium's move
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


def units_per_ms(r: Rules) -> float:
    """Engine steps one ms of budget buys at machine speed 1."""
    return STEPS_PER_MS_GRAND_CROSS if r.layout == GRAND_CROSS else STEPS_PER_MS


def playout_search(
    view: View, cands: list[Action], rng: Random, budget_ms: float, speed: float = 1.0
) -> list[float]:
    """Mean playout value of each candidate over sampled deals, gated."""
    k = knowledge_of(view)
    r = rules_of(view)
    seat: int = view["seat"]
    side = r.side_of[seat]
    start = tuple(view["public_state"]["scores"])
    step_budget = budget_ms * speed * units_per_ms(r)
    deadline = safety_deadline(budget_ms)
    rows: list[list[float]] = []
    steps = 0
    while len(rows) < MAX_SAMPLES:
        base = sample_state(view, k, rng)
        stream = rng.getrandbits(64)
        row = []
        for a in cands:
            final, n = playout(apply(base, seat, a), random.Random(stream))
            steps += n + 1
            row.append(hand_value(final, start, side, r))
        rows.append(row)
        if len(rows) >= MIN_SAMPLES and steps >= step_budget:
            break
        if time.perf_counter() > deadline:  # safety stop only
            break
    z = GATE_Z if all(a.type in (PLAY, PLAY_DOUBLES) for a in cands) else 0.0
    return gated_means([(0.0, row) for row in rows], len(cands), z)


SEARCH = Search(playout_search, units_per_ms)

__all__ = [
    "SEARCH",
    "greedy",
    "hand_value",
    "play_value",
    "playout",
    "playout_search",
    "units_per_ms",
]
