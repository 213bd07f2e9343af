"""``hard``'s search in ``block``, ``all_fives`` and ``fives_and_threes``:
many sampled deals, each played out with every seat playing like ``medium``.

Repeat: sample one deal of the unseen tiles (hands and the stock's order)
consistent with the knowledge; for every candidate, play it and let
``ModelPlayout`` play on from the next seat, on bit masks, not engine states, so
that a decision plays hundreds of deals. In the playouts every seat plays as
``medium`` would from its own point of view (``line_model.line_score``): the
tiles it cannot see are those neither in its hand nor on the table, and the
next seat is known to lack the numbers it passed on (the passes before the
decision, from the ``Knowledge``, and those of the playout; a draw lifts them,
as in ``knowledge``). The value (``playouts.hand_value``) is the points made
from the decision on, own side minus the others, in the scoring variants, and
the hand won plus a hint of the margin in ``block``.

Two levels: the playout pauses when the searching seat is next to move with a
choice (``ModelPlayout.branch``), and each of its plays there is played out to
the hand's end by the model. Its move there is not the model's: the deals that
lead it to the same position (the same ends and the same hand: what it will
see then) form one information set, and one move is chosen for the whole set,
cross-validated between the set's even and odd deals so that the noise of a
few deals is not taken for an edge (``grouped_means``; a set of fewer than
``MIN_GROUP`` deals keeps the model's move). Choosing per deal instead would
let the move see the deal's hidden tiles (strategy fusion).

Each deal is weighted by how well it explains the opponents' earlier plays
(``inference``), and the deals are thinned by those weights before their
playouts (``_WeightedDeals``), so the dear part goes to the plausible deals.

Why this search here: the model of the other seats matters more than the
number of deals or the depth; ``medium``'s model for every seat beat greedy
playouts, perfect-information replies and, in ``block``, ``line_search``'s
alpha-beta (``bench/bot_tournament.py block --pairs hard:medium``,
``bench/bot_tournament.py all_fives --pairs hard:medium``).

The work is counted: one unit per playout step plus ``DEAL_COST`` per deal,
``WEIGH_COST`` per weighed deal and ``TERM_COST`` per past hand it scored,
``budget_ms * speed * nodes_per_ms`` in all; the rates keep a
decision's CPU p95 under its budget on the calibration machine (a unit costs
more with more seats in the scoring variants). A deal that alone would take
more than the allowance ends the search with the deals done so far (none:
every candidate values 0 and ``medium``'s favourite is played).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from random import Random

from games.bots.hard import inference
from games.bots.hard.budget import Search, View, safety_deadline
from games.bots.hard.deals import deal_masks, root_of, root_plays
from games.bots.hard.line_model import counts_open_ends, line_score
from games.bots.hard.line_playout import LinePlayout
from games.bots.knowledge import Knowledge
from games.engine import Action
from games.engine.options import Rules
from games.engine.scoring import end_points
from games.engine.tiles import IS_DOUBLE, NUM_MASK, TILE_HI, TILE_LO
from games.solver import OutOfNodes

# Units per ms of budget (``bench/bot_tournament.py VARIANT --pairs
# hard:medium``: a CPU p95 under the budget on the calibration machine).
NODES_PER_MS_SCORING = 500.0  # all_fives, fives_and_threes: two seats
NODES_PER_MS_SCORING_MANY = 375.0  # the same with three or four: dearer units
NODES_PER_MS_BLOCK = 450.0
DEAL_COST = 5  # units per drawn deal (about half its CPU: bench/search_cost.py)
MIN_GROUP = 4  # deals of one information set before its own move is chosen
WEIGH_COST = 10  # units charged per weighed deal
POOL = 32  # deals weighed before the first playout, to set the reference
TERM_COST = 1  # and per past hand ``inference`` scored for it (about a unit)
MIN_DEALS = 8
MAX_DEALS = 3_000
CAP = 50_000  # units one deal may take at most (a small budget's floor)


def nodes_per_ms(r: Rules) -> float:
    """The units one ms of budget buys at machine speed 1 under these rules."""
    if r.end_scoring:
        return NODES_PER_MS_SCORING if r.seats == 2 else NODES_PER_MS_SCORING_MANY
    return NODES_PER_MS_BLOCK


# One candidate on one deal: the position of the searching seat's next choice
# (empty if none), the value of each of its plays there, and the index of the
# model's play.
Branch = tuple[tuple[object, ...], list[float], int]


class ModelPlayout(LinePlayout):
    """A ``LinePlayout`` that plays every seat like ``medium``."""

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
        self.blocking = counts_open_ends(r)  # line_score's block terms
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
        on_a = hand & NUM_MASK[a]
        on_b = 0 if b == a and db == da else hand & NUM_MASK[b]
        if not (on_a & (on_a - 1) or on_b & (on_b - 1) or on_a and on_b):
            # forced: one tile, on the one end it fits (no need to score it)
            t = (on_a or on_b).bit_length() - 1
            v, ov, od = (a, b, db) if on_a else (b, a, da)
            return (
                t,
                TILE_HI[t] if TILE_LO[t] == v else TILE_LO[t],
                IS_DOUBLE[t],
                ov,
                od,
            )
        nxt = seat + 1 if seat + 1 < self.seats else 0
        table = self.left[si]
        for h in self.hands:
            table |= h
        may = table & ~hand & ~self.lacks[nxt]
        sign = self.sign[seat]
        scoring = self.scoring if self.points else None
        best_v = -1e18
        best = (0, 0, False, 0, False)
        for v, ov, od, m in ((a, b, db, on_a), (b, a, da, on_b)):
            while m:
                low = m & -m
                m ^= low
                t = low.bit_length() - 1
                nv = TILE_HI[t] if TILE_LO[t] == v else TILE_LO[t]
                nd = IS_DOUBLE[t]
                val = line_score(
                    t, nv, nd, ov, od, hand ^ low, may, sign, scoring, self.blocking
                )
                if val > best_v:
                    best_v = val
                    best = (t, nv, nd, ov, od)
        return best

    def branch(
        self, me: int, t: int, nv: int, nd: bool, ov: int, od: bool, first: bool
    ) -> Branch:
        """``me`` plays ``t`` (taken out of its hand here), leaving the ends
        ``nv``/``ov`` (``first``: it opened the line). The others play by the
        model until ``me`` is to move again with a choice; then each of its
        plays (in ``moves``'s order, the ends lowest first) is played out.
        Returns the position ``me`` chooses in (the ends and its hand; empty
        when the hand ended first), the value of each of those plays (one
        value when there was no choice) and the index of the model's play."""
        self.lacks = list(self.lacks0)
        hands = self.hands
        saved = list(hands)
        mine = self.weight[self.side_of[me]]
        try:
            v = self._after(me, t, nv, nd, ov, od, first, me)
            if self.paused is None:
                return (), [v], 0
            si, a, da, b, db = self.paused
            hand = hands[me]
            pt, pnv, _, pov, pod = self.pick(me, si, hand, a, da, b, db)
            if (a, da) > (b, db):  # one order of the ends for every deal
                a, da, b, db = b, db, a, da
            here, lacks = list(hands), self.lacks
            moves = self.moves(hand, a, da, b, db)
            self.nodes += 1 + len(moves)  # the model's pick and each move's set-up
            vals: list[float] = []
            dflt = 0
            for _, t2, nv2, nd2, which in moves:
                ov2, od2 = (b, db) if which == 0 else (a, da)
                if (t2, nv2, ov2, od2) == (pt, pnv, pov, pod):
                    dflt = len(vals)
                self.lacks = list(lacks)
                hands[me] = hand & ~(1 << t2)
                c2 = self.made(nv2, nd2, ov2, od2) if self.points else 0
                after = self.settle(me, si, nv2, nd2, ov2, od2, -1)
                vals.append(v + mine * c2 + after)
                hands[:] = here
            return (a, da, b, db, hand), vals, dflt
        finally:
            hands[:] = saved

    def plain(
        self, me: int, t: int, nv: int, nd: bool, ov: int, od: bool, first: bool
    ) -> float:
        """``me`` plays ``t`` as in ``branch`` and the model plays every seat
        to the hand's end, ``me`` too (no pause): the plain model playout."""
        self.lacks = list(self.lacks0)
        saved = list(self.hands)
        try:
            return self._after(me, t, nv, nd, ov, od, first, -1)
        finally:
            self.hands[:] = saved

    def _after(
        self,
        me: int,
        t: int,
        nv: int,
        nd: bool,
        ov: int,
        od: bool,
        first: bool,
        stop: int,
    ) -> float:
        """``me`` plays ``t`` (taken out of its hand here): its points, then
        ``settle`` pausing at ``stop``."""
        self.hands[me] &= ~(1 << t)
        if first:
            made = end_points(self.scoring, nv + ov) if self.points else 0
        else:
            made = self.made(nv, nd, ov, od) if self.points else 0
        mine = self.weight[self.side_of[me]]
        return mine * made + self.settle(me, 0, nv, nd, ov, od, stop)

    def settle(
        self, seat: int, si: int, nv: int, nd: bool, ov: int, od: bool, stop: int
    ) -> float:
        """After ``seat``'s play: the hand's end if it went out or the line is
        blocked, else the model's play from the next seat (pausing at
        ``stop``'s next choice, see ``LinePlayout.walk``)."""
        self.paused = None
        if not self.hands[seat]:
            return self.final(seat)
        if not self.drawable(si) and not self.union() & (NUM_MASK[nv] | NUM_MASK[ov]):
            return self.final(-1)
        nxt = seat + 1 if seat + 1 < self.seats else 0
        return self.walk(nxt, si, nv, nd, ov, od, stop)


@dataclass(slots=True)
class _InfoSet:
    """The deals of one candidate that reach one position: how many, the
    weighted sums of each move's values on the even and the odd ones, and the
    model's move."""

    count: int
    even: list[float]
    odd: list[float]
    model: int

    def value(self, min_group: int) -> float:
        """The set's weighted sum under the move chosen for it (see
        ``grouped_means``)."""
        even, odd = self.even, self.odd
        if self.count < min_group:
            return even[self.model] + odd[self.model]
        ties = self.model
        pe = max(range(len(even)), key=lambda j: (even[j], j == ties))
        po = max(range(len(odd)), key=lambda j: (odd[j], j == ties))
        return odd[pe] + even[po]


def grouped_means(
    rows: list[tuple[float, list[Branch]]], n: int, min_group: int
) -> list[float]:
    """Each candidate's value over the deals, ``hard``'s next move chosen per
    information set.

    A row is one deal: its log-weight and, per candidate, a ``Branch``. Deals
    whose branches reach ``hard``'s next choice in the same position are one
    information set: ``hard`` will choose there knowing only that, so one move
    counts for all of them. It is the move with the best weighted sum, chosen
    on the even-numbered deals of the set and scored on the odd ones, and the
    other way round (cross-validation: the best of a few noisy sums is an
    optimistic estimate; this one is not). A set of fewer than ``min_group``
    deals keeps the model's move (ties go to it too)."""
    if not rows:
        return [0.0] * n
    top = max(lw for lw, _ in rows)
    weights = [math.exp(lw - top) for lw, _ in rows]
    total_w = sum(weights)
    out: list[float] = []
    for i in range(n):
        sets: dict[tuple[object, ...], _InfoSet] = {}
        for w, (_, branches) in zip(weights, rows, strict=True):
            position, vals, model = branches[i]
            g = sets.get(position)
            if g is None:
                k = len(vals)
                g = sets[position] = _InfoSet(0, [0.0] * k, [0.0] * k, model)
            half = g.odd if g.count & 1 else g.even
            g.count += 1
            for j, v in enumerate(vals):
                half[j] += w * v
        out.append(sum(g.value(min_group) for g in sets.values()) / total_w)
    return out


class _WeightedDeals:
    """Deals of the unseen tiles for the search, with their log-weights
    (``inference``), thinned by rejection control: the first ``POOL`` deals set
    a reference log-weight (the ``POOL // 8``-th highest); a deal below it is
    played only with probability ``exp(lw - ref)`` and then counts ``1``, one
    above it always, counting ``exp(lw - ref)``. The expected weight of
    every deal is unchanged, but the playouts, the dear part, go to the deals
    that explain the opponents' plays. ``used``: the units spent drawing and
    weighing."""

    def __init__(
        self,
        k: Knowledge,
        rng: random.Random,
        r: Rules,
        seat: int,
        own: int,
        events: list[inference.Event],
    ) -> None:
        self.k, self.rng, self.r, self.seat, self.own = k, rng, r, seat, own
        self.events = events
        self.cache = inference.TermCache()
        self.used = 0
        self.pool: list[tuple[float, list[int], tuple[int, ...]]] = []
        self.ref = 0.0
        if events:
            self.pool = [self._weighed() for _ in range(POOL)]
            self.ref = sorted(lw for lw, _, _ in self.pool)[-max(1, POOL // 8)]

    def _weighed(self) -> tuple[float, list[int], tuple[int, ...]]:
        r = self.r
        hands, stock = deal_masks(self.k, self.rng, r.seats, self.seat, self.own)
        self.used += DEAL_COST
        lw = 0.0
        if self.events:
            scored = self.cache.scored
            lw = inference.log_likelihood(self.events, hands, r.full, self.cache)
            self.used += WEIGH_COST + TERM_COST * (self.cache.scored - scored)
        return lw, hands, stock

    def draw(self) -> tuple[float | None, list[int], tuple[int, ...]]:
        """The next deal and its log-weight (``None``: thinned out, skip it)."""
        lw, hands, stock = self.pool.pop() if self.pool else self._weighed()
        if not self.events:
            return lw, hands, stock
        excess = lw - self.ref
        if excess >= 0:
            return excess, hands, stock
        if self.rng.random() < math.exp(excess):
            return 0.0, hands, stock
        return None, hands, stock


def model_search(
    view: View, cands: list[Action], rng: Random, budget_ms: float, speed: float = 1.0
) -> list[float]:
    """Mean value of each candidate play over sampled deals played out by
    ``ModelPlayout``."""
    root = root_of(view)
    k, r, seat, side = root.k, root.r, root.seat, root.side
    lacks = [k.lacks(s) for s in range(r.seats)]
    budget = int(budget_ms * speed * nodes_per_ms(r))
    deadline = safety_deadline(budget_ms)
    events = inference.play_events(view)
    deals = _WeightedDeals(k, rng, r, seat, root.own, events)
    rows: list[tuple[float, list[Branch]]] = []
    plays = root_plays(view, cands)
    used = 0
    while len(rows) < MAX_DEALS:
        lw, hands, stock = deals.draw()
        if lw is not None:  # else thinned out: only drawn and weighed
            deal = ModelPlayout(r, side, hands, stock, max(4 * budget, CAP), lacks)
            try:
                rows.append((lw, [deal.branch(seat, *play) for play in plays]))
            except OutOfNodes:  # one deal dearer than the whole allowance
                break
            used += deal.nodes
        if len(rows) >= MIN_DEALS and used + deals.used >= budget:
            break
        if time.perf_counter() > deadline:  # safety stop only
            break
    return grouped_means(rows, len(cands), MIN_GROUP)


SEARCH = Search(model_search, nodes_per_ms)

__all__ = [
    "SEARCH",
    "Branch",
    "ModelPlayout",
    "grouped_means",
    "model_search",
    "nodes_per_ms",
]
