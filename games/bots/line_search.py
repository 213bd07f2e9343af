"""``hard``'s search on the line with a stock and without end-sum scoring
(``draw``, ``catalan``): perfect-information Monte Carlo with alpha-beta on every
deal. It handles ``block`` too (``NODES_PER_MS``), but ``hard`` plays block by
``model_search``, which measured stronger there (bench/RESULTS.md); block's
alpha-beta stays for its tests (the machine-speed workload, ``machine``, runs
``model_search`` on block since the sixth session).
Also here: ``weighted_means`` and ``gated_means``, shared by every search.

Repeat: sample one deal of the unseen tiles (hands and the stock's order)
consistent with the knowledge (``sampling``, uniform for two seats) and solve the
rest of the hand for every candidate with alpha-beta (``solver``: exact to the
end of the hand when the node allowance permits, else to a depth fixed by
iterative deepening on the first deal, with a greedy playout at the horizon).
Each deal is weighted by how well it explains the opponents' earlier plays
(``inference``: the likelihood of those plays for a player who chooses like
``medium``, as most people do). When there are such plays, ``POOL`` deals are
drawn and weighed first (cheap) and solved most likely first (dear), so the
solved deals are the plausible ones instead of a uniform handful whose weights
mostly vanish; once the pool is used up, fresh deals are drawn and weighed one
by one. Deals are solved until the node budget (``budget_ms * NODES_PER_MS``,
or ``NODES_PER_MS_STOCK`` with a stock, ``NODES_PER_MS_CATALAN`` in Catalan;
weighing counts ``POOL_COST`` nodes a deal) is spent: few early in the hand,
hundreds late, where the search is exact and cheap. The work is counted, not
timed (see ``games.bots.hard``).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.bots import inference
from games.bots.board import hand_mask, rules_of
from games.bots.common import safety_deadline
from games.bots.knowledge import Knowledge, knowledge_of
from games.bots.sampling import sample_deal
from games.bots.solver import OutOfNodes, Solver
from games.engine import Action
from games.engine.scoring import end_points
from games.engine.state import DBL
from games.engine.tiles import IS_DOUBLE, NUM_MASK, TILE_HI, TILE_LO, tile_id
from games.engine.variants import STOCK_NONE

NODES_PER_MS = 400.0  # block: nodes are cheap (no stock)
NODES_PER_MS_STOCK = 250.0  # draw: draws make nodes dearer
NODES_PER_MS_CATALAN = 230.0  # catalan (calibrated on its own)
LINE_MIN_SAMPLES = 6
LINE_MAX_SAMPLES = 400
TARGET_SAMPLES = 24
START_DEPTH = 2
MAX_DEPTH = 40
GROWTH = 3.0
POOL = 200  # deals weighed per decision before the solved ones are drawn
POOL_COST = 10  # nodes charged per weighed deal (~ its CPU cost)


def weighted_means(rows: list[tuple[float, list[float]]], n: int) -> list[float]:
    """Mean of each column of values, each row weighted by exp(its log-weight)."""
    totals = [0.0] * n
    if not rows:
        return totals
    top = max(lw for lw, _ in rows)
    wsum = 0.0
    for lw, vals in rows:
        w = math.exp(lw - top)
        wsum += w
        for i, v in enumerate(vals):
            totals[i] += w * v
    return [t / wsum for t in totals]


def gated_means(rows: list[tuple[float, list[float]]], n: int, z: float) -> list[float]:
    """``weighted_means``, except that a candidate not clearly better than the
    first (``medium``'s favourite) cannot beat it.

    Unless its weighted mean paired difference with the first exceeds ``z``
    standard errors, a candidate's value is capped at the first's (ties go to
    the first). The standard error is that of a weighted mean: the unbiased
    weighted variance of the differences times the sum of the squared
    normalised weights (``1 / n`` for equal weights). ``z = 0`` changes nothing.
    Few or noisy deals would otherwise pick moves worse than the heuristic's.
    """
    means = weighted_means(rows, n)
    if not rows or n < 2:
        return means
    top = max(lw for lw, _ in rows)
    ws = [math.exp(lw - top) for lw, _ in rows]
    total = sum(ws)
    ws = [w / total for w in ws]
    sq = sum(w * w for w in ws)
    out = list(means)
    for i in range(1, n):
        d = means[i] - means[0]
        if d <= 0:
            continue
        if sq >= 1.0:  # one deal (or one that carries all the weight)
            out[i] = means[0]
            continue
        var = sum(
            w * (v[i] - v[0] - d) ** 2 for w, (_, v) in zip(ws, rows, strict=True)
        )
        var /= 1.0 - sq
        if d <= z * math.sqrt(var * sq):
            out[i] = means[0]
    return out


def root_plays(
    view: dict[str, Any], cands: list[Action]
) -> list[tuple[int, int, bool, int, bool, bool]]:
    """Each candidate as (tile, the end value it leaves and whether a double,
    the other end and its flag, whether it opens the line)."""
    ends = [(e[0], e[1], bool(e[2] & DBL)) for e in view["public_state"]["ends"]]
    out: list[tuple[int, int, bool, int, bool, bool]] = []
    for a in cands:
        assert a.tile is not None
        t = tile_id(*a.tile)
        d = IS_DOUBLE[t]
        if not ends:
            out.append((t, TILE_LO[t], d, TILE_HI[t], d, True))
            continue
        i = 0 if ends[0][0] == a.end else 1
        ev = ends[i][1]
        nv = TILE_HI[t] if TILE_LO[t] == ev else TILE_LO[t]
        _, ov, od = ends[1 - i]
        out.append((t, nv, d, ov, od, False))
    return out


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


def deal_masks(
    k: Knowledge, rng: random.Random, seats: int, seat: int, own: int
) -> tuple[list[int], tuple[int, ...]]:
    """One sampled deal as hand bitmasks per seat and the stock's tiles."""
    dealt, stock_pairs = sample_deal(k, rng)
    hands = [0] * seats
    hands[seat] = own
    for s, tiles in dealt.items():
        for p in tiles:
            hands[s] |= 1 << tile_id(*p)
    return hands, tuple(tile_id(*p) for p in stock_pairs)


def line_search(
    view: dict[str, Any],
    cands: list[Action],
    rng: random.Random,
    budget_ms: float,
    machine_speed: float = 1.0,
) -> list[float]:
    """Mean alpha-beta value of each candidate over sampled deals (line
    layouts), each deal weighted by ``inference.log_likelihood``. The depth
    is set on the first deal by iterative deepening: deeper while the search
    still stops at a horizon and the next depth is expected to leave room for
    ``TARGET_SAMPLES`` deals; then deals are sampled until the
    node budget is spent (many of them late in the hand, where the search is
    exact and cheap)."""
    k = knowledge_of(view)
    r = rules_of(view)
    seat: int = view["seat"]
    side = r.side_of[seat]
    own = hand_mask(view)
    per_ms = (
        NODES_PER_MS
        if r.stock == STOCK_NONE
        else NODES_PER_MS_CATALAN
        if r.scoring == "catalan"
        else NODES_PER_MS_STOCK
    )
    budget = int(budget_ms * machine_speed * per_ms)
    deadline = safety_deadline(budget_ms)
    # Plays followed by draws are left out here: draw-until-playable chains
    # leave many past hands to average, for little (bench/RESULTS.md).
    events = inference.play_events(view, past_draws=False)
    cache = inference.TermCache()
    results: list[tuple[float, list[float]]] = []
    samples = 0
    used = 0
    depth = 0
    cap = budget
    # Deals are cheap to draw and to weigh, dear to solve: with informative
    # plays a pool of deals is weighed first and solved most likely first.
    pool: list[tuple[float, list[int], tuple[int, ...]]] = []
    if events and POOL > 0:
        for _ in range(POOL):
            hands, stock = deal_masks(k, rng, r.seats, seat, own)
            lw = inference.log_likelihood(events, hands, r.full, cache)
            pool.append((lw, hands, stock))
        used += POOL * POOL_COST
        pool.sort(key=lambda x: -x[0])
    nxt_pool = 0
    while samples < LINE_MAX_SAMPLES:
        if nxt_pool < len(pool):
            lw, hands, stock = pool[nxt_pool]
            nxt_pool += 1
        else:
            hands, stock = deal_masks(k, rng, r.seats, seat, own)
            lw = inference.log_likelihood(events, hands, r.full, cache)
        vals: list[float] | None = None
        if depth == 0:
            d = START_DEPTH
            while True:
                solver = Solver(r, side, hands, stock, budget)
                try:
                    got = root_values(solver, view, cands, seat, d)
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
            depth = max(1, d)
            cap = max(budget // 4, 1)
            if vals is None:
                continue
        else:
            solver = Solver(r, side, hands, stock, cap)
            try:
                vals = root_values(solver, view, cands, seat, depth)
            except OutOfNodes:
                vals = None
                depth = max(1, depth - 2)
            used += solver.nodes
        if vals is not None:
            results.append((lw, vals))
            samples += 1
        if samples >= LINE_MIN_SAMPLES and used >= budget:
            break
        if used >= 4 * budget or time.perf_counter() > deadline:
            break  # safety stops only
    return weighted_means(results, len(cands))


__all__ = ["deal_masks", "line_search", "root_plays", "root_values"]
