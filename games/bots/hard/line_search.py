"""``hard``'s search in ``draw`` and ``catalan`` (a line with a stock, no
end-sum scoring): perfect-information Monte Carlo with alpha-beta on every deal.

Repeat: sample one deal of the unseen tiles (hands and the stock's order)
consistent with the knowledge (``deals``, uniform for two seats) and solve the
rest of the hand for every candidate with alpha-beta (``solver``: exact to the
end of the hand when the node allowance permits, else to a depth fixed by
iterative deepening on the first deal, with a greedy playout at the horizon).
Each deal is weighted by how well it explains the opponents' earlier plays
(``inference``: the likelihood of those plays for a player who chooses like
``medium``, as most people do). When there are such plays, ``POOL`` deals are
drawn and weighed first (cheap) and solved most likely first (dear), so the
solved deals are the plausible ones instead of a uniform handful whose weights
mostly vanish; once the pool is used up, fresh deals are drawn and weighed one
by one. Deals are solved until the node budget (``budget_ms * speed *
units_per_ms``; weighing counts ``POOL_COST`` nodes a deal) is spent: few early
in the hand, hundreds late, where the search is exact and cheap.

The rates keep a decision's CPU p95 under its budget on the calibration
machine (``bench/bot_tournament.py draw --pairs hard:medium``); in ``block``
``model_search`` measured stronger than this search (``bench/bot_tournament.py
block --pairs hard:medium``), so ``hard`` does not run it there.
"""

from __future__ import annotations

import random
import time
from random import Random
from typing import Any

from games.bots.hard import inference
from games.bots.hard.budget import Search, View, safety_deadline
from games.bots.hard.deals import Root, root_of
from games.bots.hard.means import weighted_means
from games.bots.hard.solver import OutOfNodes, Solver, root_plays
from games.engine import Action
from games.engine.options import Rules
from games.engine.scoring import end_points
from games.engine.tiles import NUM_MASK

NODES_PER_MS_STOCK = 250.0  # draw: draws make nodes dear
NODES_PER_MS_CATALAN = 230.0  # catalan, calibrated on its own
LINE_MIN_SAMPLES = 6
LINE_MAX_SAMPLES = 400
TARGET_SAMPLES = 24  # deals the chosen depth should leave room for
START_DEPTH = 2
MAX_DEPTH = 40
GROWTH = 3.0  # expected growth of the nodes per two plies of depth
POOL = 200  # deals weighed per decision before the solved ones are drawn
POOL_COST = 10  # nodes charged per weighed deal (~ its CPU cost)


def units_per_ms(r: Rules) -> float:
    """Alpha-beta nodes one ms of budget buys at machine speed 1."""
    return NODES_PER_MS_CATALAN if r.scoring == "catalan" else NODES_PER_MS_STOCK


def root_values(
    solver: Solver,
    view: dict[str, Any],
    cands: list[Action],
    seat: int,
    depth: int,
) -> list[float]:
    """Exact (or depth-limited) value of each candidate play on one deal."""
    hands = solver.hands
    own = hands[seat]
    nxt = seat + 1 if seat + 1 < solver.seats else 0
    inf = 1e18
    out: list[float] = []
    for t, nv, nd, ov, od, first in root_plays(view, cands):
        hands[seat] = own & ~(1 << t)
        try:
            if first:
                c = 0.0
                if solver.points:
                    c = solver.weight[solver.side] * end_points(solver.scoring, nv + ov)
                if not hands[seat]:
                    v = c + solver.final(seat)
                elif not solver.drawable(0) and not solver.union() & (
                    NUM_MASK[nv] | NUM_MASK[ov]
                ):
                    v = c + solver.final(-1)
                else:
                    v = c + solver.node(nxt, 0, nv, nd, ov, od, depth - 1, -inf, inf)
            else:
                v = solver.after_play(seat, 0, t, nv, nd, ov, od, depth, -inf, inf)
        finally:
            hands[seat] = own
        out.append(v)
    return out


Pool = list[tuple[float, list[int], tuple[int, ...]]]


def _weighed_pool(
    root: Root, rng: random.Random, events: list[inference.Event], cache: Any
) -> Pool:
    """``POOL`` deals with their log-weights, most likely first (stable)."""
    pool: Pool = []
    for _ in range(POOL):
        hands, stock = root.deal(rng)
        lw = inference.log_likelihood(events, hands, root.r.full, cache)
        pool.append((lw, hands, stock))
    pool.sort(key=lambda x: -x[0])
    return pool


def _deepen(
    root: Root,
    view: dict[str, Any],
    cands: list[Action],
    deal: tuple[list[int], tuple[int, ...]],
    budget: int,
) -> tuple[int, list[float] | None, int]:
    """Iterative deepening on the first deal: deeper while the search still
    stops at a horizon and the next depth is expected to leave room for
    ``TARGET_SAMPLES`` deals. Returns the depth, the values at it (``None``
    if even the first depth ran out of nodes) and the nodes used."""
    hands, stock = deal
    vals: list[float] | None = None
    used = 0
    d = START_DEPTH
    while True:
        solver = Solver(root.r, root.side, hands, stock, budget)
        try:
            got = root_values(solver, view, cands, root.seat, d)
        except OutOfNodes:
            used += solver.nodes
            d -= 2
            break
        used += solver.nodes
        vals = got
        cost = solver.nodes
        if (
            not solver.horizon
            or cost * GROWTH * TARGET_SAMPLES > budget
            or d + 2 > MAX_DEPTH
        ):
            break
        d += 2
    return max(1, d), vals, used


def line_search(
    view: View, cands: list[Action], rng: Random, budget_ms: float, speed: float = 1.0
) -> list[float]:
    """Mean alpha-beta value of each candidate over sampled deals, each deal
    weighted by ``inference.log_likelihood``: the depth is set on the first
    deal (``_deepen``), then deals are solved until the node budget is spent."""
    root = root_of(view)
    r = root.r
    budget = int(budget_ms * speed * units_per_ms(r))
    deadline = safety_deadline(budget_ms)
    # Plays followed by draws are left out here: draw-until-playable chains
    # leave many past hands to average, for little gain
    # (``bench/bot_tournament.py draw --pairs hard:medium``).
    events = inference.play_events(view, past_draws=False)
    cache = inference.TermCache()
    results: list[tuple[float, list[float]]] = []
    used = 0
    depth = 0
    cap = budget
    pool: Pool = []
    if events:
        pool = _weighed_pool(root, rng, events, cache)
        used += POOL * POOL_COST
    nxt_pool = 0
    while len(results) < LINE_MAX_SAMPLES:
        if nxt_pool < len(pool):
            lw, hands, stock = pool[nxt_pool]
            nxt_pool += 1
        else:
            hands, stock = root.deal(rng)
            lw = inference.log_likelihood(events, hands, r.full, cache)
        vals: list[float] | None
        if depth == 0:
            depth, vals, spent = _deepen(root, view, cands, (hands, stock), budget)
            used += spent
            cap = max(budget // 4, 1)
            if vals is None:
                continue
        else:
            solver = Solver(r, root.side, hands, stock, cap)
            try:
                vals = root_values(solver, view, cands, root.seat, depth)
            except OutOfNodes:
                vals = None
                depth = max(1, depth - 2)
            used += solver.nodes
        if vals is not None:
            results.append((lw, vals))
        if len(results) >= LINE_MIN_SAMPLES and used >= budget:
            break
        if used >= 4 * budget or time.perf_counter() > deadline:
            break  # safety stops only
    return weighted_means(results, len(cands))


SEARCH = Search(line_search, units_per_ms)

__all__ = ["SEARCH", "line_search", "root_values", "units_per_ms"]
