"""``hard``'s search on a line in ``block`` and in the scoring variants
(``all_fives``, ``fives_and_threes``): many sampled deals, each played out by
``medium``'s model.

Repeat: sample one deal of the unseen tiles (hands and the stock's order)
consistent with the knowledge; for every candidate, play it and let
``ModelSolver`` play the rest of the hand to its end (``DEPTH`` 1: the playout
starts at the next seat), on bit masks, not engine states, so that a decision
plays hundreds of deals. In the playouts every seat plays as ``medium`` would
from its own point of view (``line_model.line_score``): the tiles it cannot see
are those neither in its hand nor on the table, and the next seat is known to
lack the numbers it passed on (the passes before the decision, from the
``Knowledge``, and those of the playout; a draw lifts them, as in
``knowledge``). The value (``rollout.hand_value``) is the points made from the
decision on, own side minus the others, in the scoring variants, and the hand
won plus a hint of the margin in ``block``; it is averaged over the deals, each
deal weighted by how well it explains the opponents' earlier plays
(``inference``, the same ``medium`` model, with its scoring terms where the
variant scores).

Decision: the model of the other seats matters more than the number of deals
or the depth. Tried (bench/RESULTS.md): engine playouts with the greedy
``rollout`` policy (tens of deals; three times the budget changed nothing),
the same greedy policy on bit masks (hundreds of deals), alpha-beta with
perfect information for the reply; ``medium``'s model for every seat measured
best, and for the opponents only (a greedy self) worse; weighing the deals
added a little more. In ``block`` these playouts also beat ``line_search``'s
alpha-beta (the opponents as perfect-information minimisers) at half its CPU
time; a best response to the model (own seats searched four plies, others
playing ``medium``) was worse, and in ``draw`` alpha-beta stays ahead
(bench/RESULTS.md, fourth session).

The work is counted: one unit per playout step or search node plus
``DEAL_COST`` per deal and ``WEIGH_COST`` per weighed deal, ``budget_ms *
machine_speed`` times ``NODES_PER_MS_SCORING`` or ``NODES_PER_MS_BLOCK`` (block's
playouts are cheaper) in all (see ``games.bots.hard``). A deal that alone
would take more than the allowance ends the search with the deals done so far
(none: every candidate values 0 and ``medium``'s favourite is played).
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.bots import inference
from games.bots.board import hand_mask, rules_of
from games.bots.common import safety_deadline
from games.bots.knowledge import knowledge_of
from games.bots.line_model import line_score
from games.bots.line_search import deal_masks, root_values, weighted_means
from games.bots.solver import OutOfNodes, Solver, tile_list
from games.engine import Action
from games.engine.options import Rules
from games.engine.tiles import IS_DOUBLE, NUM_MASK, TILE_HI, TILE_LO

NODES_PER_MS_SCORING = 250.0
NODES_PER_MS_BLOCK = 450.0
DEAL_COST = 5  # units charged per sampled deal (~ its CPU cost)
DEPTH = 1
WEIGH = True  # weigh the deals by the opponents' past plays (``inference``)
WEIGH_COST = 10  # units charged per weighed deal
MIN_DEALS = 8
MAX_DEALS = 3_000
CAP = 50_000  # units one deal may take at most (a small budget's floor)


class ModelSolver(Solver):
    """A ``Solver`` whose playouts play every seat like ``medium``."""

    def __init__(
        self,
        r: Rules,
        side: int,
        hands: list[int],
        stock: tuple[int, ...],
        cap: int,
        lacks: list[int],
    ) -> None:
        super().__init__(r, side, hands, stock, cap)
        left = [0] * (len(stock) + 1)
        for i in range(len(stock) - 1, -1, -1):
            left[i] = left[i + 1] | 1 << stock[i]
        self.left = left  # tiles still in the stock from each draw on
        self.lacks0 = lacks  # tiles each seat is known to lack at the decision
        self.lacks = list(lacks)
        self.sign = [
            1.0 if r.side_of[(s + 1) % r.seats] != r.side_of[s] else -1.0
            for s in range(r.seats)
        ]

    def playout(self, seat: int, si: int, a: int, da: bool, b: int, db: bool) -> float:
        self.lacks = list(self.lacks0)
        return super().playout(seat, si, a, da, b, db)

    def stuck(self, seat: int, si: int, fit: int) -> None:
        # A pass shows the seat lacks the ends' numbers; a draw lifts what its
        # passes had shown (as ``knowledge`` reads the log).
        self.lacks[seat] = 0 if self.drawable(si) else self.lacks[seat] | fit

    def pick(
        self, seat: int, si: int, hand: int, a: int, da: bool, b: int, db: bool
    ) -> tuple[int, int, bool, int, bool]:
        nxt = seat + 1 if seat + 1 < self.seats else 0
        table = self.left[si]
        for h in self.hands:
            table |= h
        may = table & ~hand & ~self.lacks[nxt]
        sign = self.sign[seat]
        scoring = self.scoring if self.points else None
        best_v = -1e18
        best = (0, 0, False, 0, False)
        for side_i, (v, ov, od) in enumerate(((a, b, db), (b, a, da))):
            if side_i == 1 and b == a and db == da:
                break
            for t in tile_list(hand & NUM_MASK[v]):
                nv = TILE_HI[t] if TILE_LO[t] == v else TILE_LO[t]
                nd = IS_DOUBLE[t]
                rest = hand & ~(1 << t)
                val = line_score(t, nv, nd, ov, od, rest, may, sign, scoring)
                if val > best_v:
                    best_v = val
                    best = (t, nv, nd, ov, od)
        return best


def model_search(
    view: dict[str, Any],
    cands: list[Action],
    rng: random.Random,
    budget_ms: float,
    machine_speed: float = 1.0,
) -> list[float]:
    """Mean value of each candidate play over sampled deals played out by
    ``ModelSolver``."""
    k = knowledge_of(view)
    r = rules_of(view)
    seat: int = view["seat"]
    side = r.side_of[seat]
    own = hand_mask(view)
    lacks = [k.lacks(s) for s in range(r.seats)]
    per_ms = NODES_PER_MS_SCORING if r.end_scoring else NODES_PER_MS_BLOCK
    budget = int(budget_ms * machine_speed * per_ms)
    deadline = safety_deadline(budget_ms)
    events = inference.play_events(view) if WEIGH else []
    cache: dict[tuple[int, int], float] = {}
    rows: list[tuple[float, list[float]]] = []
    used = 0
    while len(rows) < MAX_DEALS:
        hands, stock = deal_masks(k, rng, r.seats, seat, own)
        lw = 0.0
        if events:
            lw = inference.log_likelihood(events, hands, r.full, cache)
            used += WEIGH_COST
        solver = ModelSolver(r, side, hands, stock, max(4 * budget, CAP), lacks)
        try:
            rows.append((lw, root_values(solver, view, cands, seat, DEPTH)))
        except OutOfNodes:  # one deal dearer than the whole allowance
            break
        used += solver.nodes + DEAL_COST
        if len(rows) >= MIN_DEALS and used >= budget:
            break
        if time.perf_counter() > deadline:  # safety stop only
            break
    return weighted_means(rows, len(cands))


__all__ = ["ModelSolver", "model_search"]
