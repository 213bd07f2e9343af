"""``hard``: Monte Carlo over deals consistent with the view.

Algorithm, per decision that needs thought:

1. Read the public log into ``Knowledge``: the unseen tiles, each seat's count,
   and the limits its passes, its draws and the opening put on its holdings.
2. Rank the candidates with ``medium``'s heuristics and keep the best
   ``MAX_CANDIDATES`` (Spider's multi-double moves can be many).
3. Sample deals of the unseen tiles (hands and the stock's order) consistent
   with the knowledge and value every candidate on each deal, by layout and
   scoring:

   * the line with a stock and without end-sum scoring (``draw``,
     ``catalan``): ``line_search``, alpha-beta to the end of the hand (or a
     depth) on each deal, the deals weighted by how well they explain the
     opponents' earlier plays (``inference``);
   * the line without a stock (``block``) or with end-sum scoring
     (``all_fives``, ``fives_and_threes``): ``model_search``, hundreds of deals
     each played out on bit masks with every seat playing like ``medium`` from
     its own view, weighted likewise (and played as often as their weights
     say: deals that explain the plays poorly are thinned out before their
     playouts), except ``hard``'s own next choice: every
     play there is played out, and one is chosen per information set (the
     deals that look alike to it then);
   * the other layouts (``cross``, ``grand_cross``, ``fives``, ``spider``):
     ``search`` below: build the full state with the engine's ``determinize``
     and for every candidate apply it and play the hand out with the greedy
     playout policy (``rollout``), all candidates sharing the deal and the
     playout's random stream (common random numbers: the comparison is between
     moves, not luck). These playouts are few and noisy, so a candidate leaves
     ``medium``'s favourite only when it wins by more than ``GATE_Z`` standard
     errors of the paired difference (``gated_means``; at a quarter of the
     budget this took grand_cross from 43% to 57%, spider from 48% to 56%
     and cross from 56% to 61% of hands against ``medium``, bench/RESULTS.md).
4. Play the candidate with the best mean ``hand_value``: hand won plus a hint of
   the point margin, or the point margin itself in the scoring variants; values
   are per *side*, so the bot plays for its partner and against the opponents,
   scores in All Fives / Fives and Threes / Fives and avoids penalties in Spider.
   Ties go to ``medium``'s favourite.

Claims and Muggins calls are always made; a single legal action is returned at
once.

Determinism and the time budget: the amount of work is counted, not timed:
search nodes, playout steps and weighed deals (``budget_ms * machine_speed``
times ``line_search.NODES_PER_MS_STOCK`` / ``NODES_PER_MS_CATALAN``,
``model_search.nodes_per_ms``), engine steps in
``search`` (``STEPS_PER_MS``, ``STEPS_PER_MS_GRAND_CROSS``), all calibrated on
one machine (the calibration machine) so that a decision's CPU-time p95 stays under its
budget there (measured by ``bench/bot_tournament.py``, see bench/RESULTS.md).
``machine_speed`` is how fast the host machine is against that one
(``games.bots.machine``: 1.0 by default, measured once per process by the
platform), so the budget holds on slower and faster machines too. The same view,
legal actions, rng seed and machine speed therefore give the same move on any
machine. The wall clock is only a safety stop (``common.safety_deadline``) for a
machine far slower than its ``machine_speed`` says; it is practically never hit,
and when it is the move can depend on timing.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from games.bots.board import rules_of
from games.bots.common import routine, safe_choose, safety_deadline
from games.bots.knowledge import knowledge_of
from games.bots.line_search import gated_means, line_search
from games.bots.medium import ranked_plays
from games.bots.model_search import model_search
from games.bots.rollout import hand_value, playout
from games.bots.sampling import sample_state
from games.engine import Action, apply
from games.engine.actions import PLAY, PLAY_DOUBLES
from games.engine.variants import GRAND_CROSS, LINE, STOCK_NONE

DEFAULT_BUDGET_MS = 150.0
STEPS_PER_MS = 50.0  # engine playouts: cross, fives, spider
STEPS_PER_MS_GRAND_CROSS = 25.0  # many ends: the dearest steps
MIN_SAMPLES = 4
MAX_SAMPLES = 2_000
MAX_CANDIDATES = 10
GATE_Z = 2.0  # standard errors a playout search must win by to leave medium's move


def candidates(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The moves worth searching, most promising first."""
    plays = ranked_plays(view, legal)
    if plays:
        return plays[:MAX_CANDIDATES]
    return list(legal)


def search(
    view: dict[str, Any],
    cands: list[Action],
    rng: random.Random,
    budget_ms: float,
    machine_speed: float = 1.0,
) -> list[float]:
    """Mean playout value of each candidate over sampled deals."""
    k = knowledge_of(view)
    r = rules_of(view)
    seat: int = view["seat"]
    side = r.side_of[seat]
    start = tuple(view["public_state"]["scores"])
    per_ms = STEPS_PER_MS_GRAND_CROSS if r.layout == GRAND_CROSS else STEPS_PER_MS
    step_budget = budget_ms * machine_speed * per_ms
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
        if time.perf_counter() > deadline:  # safety stop only, see the docstring
            break
    z = GATE_Z if all(a.type in (PLAY, PLAY_DOUBLES) for a in cands) else 0.0
    return gated_means([(0.0, row) for row in rows], len(cands), z)


@dataclass(frozen=True)
class HardBot:
    """Determinized Monte Carlo search (see the module docstring)."""

    budget_ms: float = DEFAULT_BUDGET_MS
    machine_speed: float = 1.0  # the host against the calibration machine
    level: str = "hard"

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """The candidate with the best mean value over sampled deals."""
        quick = routine(legal, greedy_claims=True)
        if quick is not None:
            return quick
        cands = candidates(view, legal)
        if len(cands) == 1:
            return cands[0]
        r = rules_of(view)
        budget, speed = self.budget_ms, self.machine_speed
        if r.layout != LINE or not all(a.type == PLAY for a in cands):
            values = search(view, cands, rng, budget, speed)
        elif r.end_scoring or r.stock == STOCK_NONE:
            values = model_search(view, cands, rng, budget, speed)
        else:
            values = line_search(view, cands, rng, budget, speed)
        best = 0
        for i, v in enumerate(values):
            if v > values[best]:
                best = i
        return cands[best]

    def choose(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """``decide`` that never raises."""
        return safe_choose(self, view, legal, rng)
