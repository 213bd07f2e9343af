"""``hard``'s search in ``draw`` and ``catalan`` (a line with a stock, no
end-sum scoring): perfect-information Monte Carlo with alpha-beta on every deal.

Repeat: sample one deal of the unseen tiles (hands and the stock's order)
consistent with the knowledge (``deals``, uniform for two seats) and solve the
rest of the hand for every candidate with alpha-beta (``games.solver``'s search
on ``games.solver.line.LineGame``, valued by ``line_playout.SideValue`` with
every other side against ``hard``'s: exact to the end of the hand when the node
allowance permits, else to a depth in tiles placed fixed by iterative deepening
on the first deal, with ``LineGame.greedy``'s playout at the horizon).
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
from games.bots.hard.deals import Root, root_of, root_plays
from games.bots.hard.line_playout import SideValue
from games.bots.hard.means import weighted_means
from games.engine import Action
from games.engine.options import Rules
from games.engine.state import DBL
from games.solver import OutOfNodes
from games.solver.line import LineGame, LinePos
from games.solver.search import Search as SolverSearch

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
# Units an alpha-beta node counts, a playout step counting one: a node builds
# every move's position, a step of the in-place greedy playout does not
# (measured: a node about four steps' CPU, ``bench/search_cost.py --only draw``).
NODE_UNITS = 3


def units_per_ms(r: Rules) -> float:
    """Alpha-beta nodes one ms of budget buys at machine speed 1."""
    return NODES_PER_MS_CATALAN if r.scoring == "catalan" else NODES_PER_MS_STOCK


def root_values(
    root: Root,
    view: dict[str, Any],
    cands: list[Action],
    deal: tuple[list[int], tuple[int, ...]],
    depth: int,
    cap: int,
) -> tuple[list[float] | None, int, bool]:
    """The value of each candidate play on one deal, searched until ``depth``
    tiles are placed (the candidate's own counts one), within ``cap`` nodes:
    (the values, ``None`` if the nodes ran out; the nodes used; whether a
    heuristic leaf was met, i.e. the values are not exact)."""
    r = root.r
    game = LineGame(r)
    search = SolverSearch(
        game,
        objective=SideValue(r, root.side),
        policy=game.greedy,
        rollout=game.greedy_rollout,
        node_units=NODE_UNITS,
        max_nodes=cap,
    )
    hands, stock = deal
    pos = _position(view, root.seat, hands, stock)
    plays = root_plays(view, cands)
    roots = [game.play(pos, t, nv, nd, ov, od) for t, nv, nd, ov, od, _ in plays]
    try:
        vals = search.scores(roots, max(0, depth - 1))
    except OutOfNodes:
        return None, search.nodes, True
    return vals, search.nodes, search.horizon


def _position(
    view: dict[str, Any], seat: int, hands: list[int], stock: tuple[int, ...]
) -> LinePos:
    """The deal's position at the decision, ``seat`` to play."""
    ends = view["public_state"]["ends"]
    if not ends:
        return (tuple(hands), seat, stock, -1, False, -1, False)
    (_, a, fa), (_, b, fb) = ends
    return (tuple(hands), seat, stock, a, bool(fa & DBL), b, bool(fb & DBL))


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
    vals: list[float] | None = None
    used = 0
    d = START_DEPTH
    while True:
        got, cost, horizon = root_values(root, view, cands, deal, d, budget)
        used += cost
        if got is None:
            d -= 2
            break
        vals = got
        if not horizon or cost * GROWTH * TARGET_SAMPLES > budget or d + 2 > MAX_DEPTH:
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
            vals, spent, _ = root_values(root, view, cands, (hands, stock), depth, cap)
            if vals is None:
                depth = max(1, depth - 2)
            used += spent
        if vals is not None:
            results.append((lw, vals))
        if len(results) >= LINE_MIN_SAMPLES and used >= budget:
            break
        if used >= 4 * budget or time.perf_counter() > deadline:
            break  # safety stops only
    return weighted_means(results, len(cands))


SEARCH = Search(line_search, units_per_ms)

__all__ = ["SEARCH", "line_search", "root_values", "units_per_ms"]
