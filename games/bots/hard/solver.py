"""One determinized deal of a line-layout hand, on bit masks: alpha-beta and
playouts.

Once a sampled deal fixes every hand and the stock's order, the rest of the
hand is a perfect-information game. ``line_search`` (``draw``, ``catalan``)
solves it here by alpha-beta; ``model_search`` (``block``, ``all_fives``,
``fives_and_threes``) plays it out with ``walk`` and its own ``pick``. The
position is compact (hand bitmasks, the two ends with their double flags,
the stock pointer, the seat to move), with the engine's rules re-implemented for
the line only and checked against the engine by the tests:

* a play scores its end-sum (scoring variants), every seat claims at once;
* no play: ``block`` passes, ``draw``/``catalan`` draw until a tile fits (then
  any fitting tile may be played), ``all_fives``/``fives_and_threes`` draw one
  tile (never the last two) and the turn ends; the hand is blocked as soon as no
  seat can play and none may draw;
* the hand's result is scored as ``games.engine.scoring.score_hand`` does.

The value is the one of ``playouts.hand_value`` for the searching side: in the
scoring variants the points made from here on (own side minus the mean of the
others), elsewhere the hand won (1), tied (0.5) or lost (0) plus a hundredth of
that margin. Seats of the searching side maximise it, the others minimise it
(with more than two sides: the "paranoid" assumption).

Depth: the search is exact when it reaches the end of the hand; with ``depth``
turns left it evaluates the position by a deterministic playout: ``pick`` is the
``playouts`` policy without its random moves, and a subclass may play another
(``model_search.ModelSolver``). The playout's loop (``walk``) can also stop
where a given seat next has a choice, for a search that decides that move
itself (``ModelSolver.branch``). A transposition table keyed by
(hands, seat, stock pointer, ends, depth) stores alpha-beta bounds. Every node
and playout step counts one unit; past ``cap`` units ``OutOfNodes`` is raised, so
the work is bounded and deterministic.

Also here, for every bit-mask search: ``line_plays`` (the plays of a hand on
two ends) and ``root_plays`` (a view's candidate plays in that form).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engine import Action
from games.engine.options import Rules
from games.engine.scoring import end_points, round5
from games.engine.state import DBL
from games.engine.tiles import (
    IS_DOUBLE,
    MAX_PIPS,
    NUM_MASK,
    PIPS,
    TILE_HI,
    TILE_LO,
    tile_id,
)
from games.engine.variants import STOCK_NONE, STOCK_ONE

EXACT, LOWER, UPPER = 0, 1, 2
W_BLOCK = 10.0
_PIPS_CACHE: dict[int, int] = {}


def bound(v: float, alpha: float, beta: float) -> int:
    """The transposition-table flag of a value found in the window
    (``alpha``, ``beta``)."""
    return EXACT if alpha < v < beta else LOWER if v >= beta else UPPER


class OutOfNodes(Exception):
    """The search used up its node allowance."""


def mask_pips(mask: int) -> int:
    """Pips of a hand (cached)."""
    p = _PIPS_CACHE.get(mask)
    if p is None:
        p = 0
        m = mask
        while m:
            low = m & -m
            p += PIPS[low.bit_length() - 1]
            m ^= low
        if len(_PIPS_CACHE) < 200_000:
            _PIPS_CACHE[mask] = p
    return p


@cache
def end_sum_table(scoring: str) -> tuple[int, ...]:
    """``end_points`` of every end-sum a line can show, by the sum (two ends,
    a double end counting both halves: 0 to 4 x ``MAX_PIPS``)."""
    return tuple(end_points(scoring, x) for x in range(4 * MAX_PIPS + 1))


def tile_list(mask: int) -> list[int]:
    """The tiles of a bit mask, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# One play on a line: (tile, the end value it leaves, whether that end is a
# double, the other end's value and flag, which end it went on: 0 or 1).
LinePlay = tuple[int, int, bool, int, bool, int]


def line_plays(hand: int, a: int, da: bool, b: int, db: bool) -> list[LinePlay]:
    """Every play of ``hand`` on the ends ``a``/``b`` (each with its double
    flag), end ``a`` first, lowest tile first; two equal ends are one."""
    out: list[LinePlay] = []
    for which, (v, ov, od) in enumerate(((a, b, db), (b, a, da))):
        if which == 1 and b == a and db == da:
            break
        for t in tile_list(hand & NUM_MASK[v]):
            lo = TILE_LO[t]
            out.append((t, TILE_HI[t] if lo == v else lo, IS_DOUBLE[t], ov, od, which))
    return out


RootPlay = tuple[int, int, bool, int, bool, bool]


def root_plays(view: dict[str, Any], cands: list[Action]) -> list[RootPlay]:
    """Each candidate play of a view as (tile, the end value it leaves and
    whether a double, the other end and its flag, whether it opens the line)."""
    ends = [(e[0], e[1], bool(e[2] & DBL)) for e in view["public_state"]["ends"]]
    out: list[RootPlay] = []
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


class Solver:
    """One determinized deal; ``hands`` is mutated during a search and restored."""

    def __init__(
        self,
        r: Rules,
        side: int,
        hands: list[int],
        stock: tuple[int, ...],
        cap: int,
    ) -> None:
        self.seats = r.seats
        self.side_of = r.side_of
        self.n_sides = r.n_sides
        self.side = side
        self.points = r.end_scoring
        self.scoring = r.scoring
        self.sum_points = end_sum_table(r.scoring) if r.end_scoring else ()
        self.one = r.stock == STOCK_ONE
        self.reserve = r.reserve
        self.hands = hands
        self.stock = stock
        # the stock pointers below which a draw is allowed (``drawable``)
        self.draw_end = 0 if r.stock == STOCK_NONE else len(stock) - r.reserve
        self.cap = cap
        self.nodes = 0
        self.horizon = False
        other = -1.0 / max(1, r.n_sides - 1)
        self.weight = [1.0 if s == side else other for s in range(r.n_sides)]
        self.tt: dict[tuple[object, ...], tuple[int, float]] = {}
        self.paused: tuple[int, int, bool, int, bool] | None = None  # ``walk``

    # ------------------------------------------------------------ helpers

    def drawable(self, si: int) -> bool:
        return si < self.draw_end

    def draw(self, hand: int, si: int, fit: int) -> tuple[int, int]:
        """A seat holding ``hand`` has no play on the ends ``fit``: the hand
        and the stock pointer after its draws (one tile, or until one fits;
        none when the stock allows none)."""
        if not self.drawable(si):
            return hand, si
        if self.one:
            return hand | 1 << self.stock[si], si + 1
        while not hand & fit and self.drawable(si):
            hand |= 1 << self.stock[si]
            si += 1
        return hand, si

    def union(self) -> int:
        u = 0
        for h in self.hands:
            u |= h
        return u

    def final(self, out_seat: int) -> float:
        """Value of the hand's end: ``out_seat`` went out, or -1 for a block."""
        side_of = self.side_of
        side_pips = [0] * self.n_sides
        for s, h in enumerate(self.hands):
            side_pips[side_of[s]] += mask_pips(h)
        base = 0
        if out_seat >= 0:
            ws = side_of[out_seat]
        else:
            low = min(side_pips)
            if side_pips.count(low) > 1:
                return 0.0 if self.points else 0.5
            ws = side_pips.index(low)
            base = low
        if self.scoring == "catalan" and out_seat < 0:
            total = sum(side_pips)
        else:
            total = 0
            fives = self.scoring == "all_fives"
            for i, p in enumerate(side_pips):
                if i != ws:
                    total += round5(p - base) if fives else p - base
        diff = self.weight[ws] * total
        if self.points:
            return diff
        return (1.0 if ws == self.side else 0.0) + 0.01 * diff

    def made(self, a: int, da: bool, b: int, db: bool) -> int:
        """End-sum points of a line whose ends are ``a`` and ``b``."""
        return self.sum_points[(a + a if da else a) + (b + b if db else b)]

    def moves(
        self, hand: int, a: int, da: bool, b: int, db: bool
    ) -> list[tuple[float, int, int, bool, int]]:
        """(order key, tile, new end value, new end double, which end 0/1),
        most promising first."""
        out: list[tuple[float, int, int, bool, int]] = []
        for t, nv, nd, ov, od, which in line_plays(hand, a, da, b, db):
            key = PIPS[t] + (3.0 if nd else 0.0)
            if self.points:
                key += 2 * self.made(nv, nd, ov, od)
            out.append((key, t, nv, nd, which))
        out.sort(key=lambda x: -x[0])
        return out

    # ------------------------------------------------------------ search

    def after_play(
        self,
        seat: int,
        si: int,
        t: int,
        nv: int,
        nd: bool,
        ov: int,
        od: bool,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Value once ``seat`` has put ``t`` (leaving ends ``nv``/``ov``); the
        tile is already out of its hand."""
        c = 0.0
        if self.points:
            p = self.made(nv, nd, ov, od)
            if p:
                c = self.weight[self.side_of[seat]] * p
        if not self.hands[seat]:
            return c + self.final(seat)
        if not self.drawable(si) and not self.union() & (NUM_MASK[nv] | NUM_MASK[ov]):
            return c + self.final(-1)
        nxt = seat + 1 if seat + 1 < self.seats else 0
        return c + self.node(nxt, si, nv, nd, ov, od, depth - 1, alpha - c, beta - c)

    def node(
        self,
        seat: int,
        si: int,
        a: int,
        da: bool,
        b: int,
        db: bool,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Value of ``seat``'s turn (play phase, hand not over)."""
        self.nodes += 1
        if self.nodes > self.cap:
            raise OutOfNodes
        if depth <= 0:
            self.horizon = True
            return self.playout(seat, si, a, da, b, db)
        hands = self.hands
        if (a, da) > (b, db):
            a, da, b, db = b, db, a, da
        key = (tuple(hands), seat, si, a, da, b, db, depth)
        hit = self.probe(key, alpha, beta)
        if hit is not None:
            return hit
        a0, b0 = alpha, beta
        hand0 = hands[seat]
        hand = hand0
        fit = NUM_MASK[a] | NUM_MASK[b]
        nxt = seat + 1 if seat + 1 < self.seats else 0
        if not hand & fit:
            hand, si = self.draw(hand, si, fit)
            hands[seat] = hand
            if self.one or not hand & fit:
                blocked = not self.drawable(si) and not self.union() & fit
                v = (
                    self.final(-1)
                    if blocked
                    else self.node(nxt, si, a, da, b, db, depth - 1, alpha, beta)
                )
                hands[seat] = hand0
                self.tt[key] = (bound(v, a0, b0), v)
                return v
        try:
            best = self.best_play(seat, si, hand, a, da, b, db, depth, alpha, beta)
        finally:
            hands[seat] = hand0
        self.tt[key] = (bound(best, a0, b0), best)
        return best

    def best_play(
        self,
        seat: int,
        si: int,
        hand: int,
        a: int,
        da: bool,
        b: int,
        db: bool,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Alpha-beta over the plays of ``seat`` holding ``hand``, most
        promising first; leaves ``hands[seat]`` for the caller to restore."""
        hands = self.hands
        maxing = self.side_of[seat] == self.side
        best = -1e18 if maxing else 1e18
        for _, t, nv, nd, which in self.moves(hand, a, da, b, db):
            ov, od = (b, db) if which == 0 else (a, da)
            hands[seat] = hand & ~(1 << t)
            v = self.after_play(seat, si, t, nv, nd, ov, od, depth, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        return best

    def probe(self, key: tuple[object, ...], alpha: float, beta: float) -> float | None:
        """The transposition table's value for ``key`` if its bound settles
        the window (``alpha``, ``beta``), else ``None``."""
        hit = self.tt.get(key)
        if hit is None:
            return None
        flag, val = hit
        if (
            flag == EXACT
            or (flag == LOWER and val >= beta)
            or (flag == UPPER and val <= alpha)
        ):
            return val
        return None

    def stuck(self, seat: int, si: int, fit: int) -> None:
        """Hook: in a playout, ``seat`` has no play on the ends ``fit`` (a tile
        mask) with the stock at ``si``. Nothing to do for the greedy policy."""

    def pick(
        self, seat: int, si: int, hand: int, a: int, da: bool, b: int, db: bool
    ) -> tuple[int, int, bool, int, bool]:
        """The playout policy's play for ``seat`` holding ``hand`` (some tile
        fits): (tile, new end value, its double flag, other end, its flag).
        Greedy, seeing the next seat's hand: weight, doubles, points made and
        the next seat left without a play (a partner: the reverse)."""
        nxt = seat + 1 if seat + 1 < self.seats else 0
        foe = self.side_of[nxt] != self.side_of[seat]
        nh = self.hands[nxt]
        best_v = -1e18
        best = (0, 0, False, 0, False)
        for t, nv, nd, ov, od, _ in line_plays(hand, a, da, b, db):
            val = PIPS[t] + (3.0 if nd else 0.0)
            if self.points:
                val += 2 * self.made(nv, nd, ov, od)
            if not nh & (NUM_MASK[nv] | NUM_MASK[ov]):
                val += W_BLOCK if foe else -W_BLOCK
            if val > best_v:
                best_v = val
                best = (t, nv, nd, ov, od)
        return best

    def playout(self, seat: int, si: int, a: int, da: bool, b: int, db: bool) -> float:
        """Deterministic play by ``pick`` to the end of the hand, from ``seat``'s
        turn; the points made from here on (``final``'s units)."""
        saved = list(self.hands)
        try:
            return self.walk(seat, si, a, da, b, db)
        finally:
            self.hands[:] = saved

    def walk(
        self,
        seat: int,
        si: int,
        a: int,
        da: bool,
        b: int,
        db: bool,
        stop: int = -1,
    ) -> float:
        """``playout``'s loop, leaving ``hands`` as the play left them.

        With ``stop`` a seat, the walk pauses when that seat is to move with
        more than one play: ``paused`` is then (stock pointer, ends) and the
        points made so far are returned; otherwise ``paused`` is ``None`` and
        the value includes the hand's end."""
        hands = self.hands
        n = self.seats
        draw_end = self.draw_end
        total = 0.0
        self.paused = None
        while True:
            self.nodes += 1
            if self.nodes > self.cap:
                raise OutOfNodes
            hand = hands[seat]
            fit = NUM_MASK[a] | NUM_MASK[b]
            nxt = seat + 1 if seat + 1 < n else 0
            if not hand & fit:
                self.stuck(seat, si, fit)
                hand, si = self.draw(hand, si, fit)
                hands[seat] = hand
                if not hand & fit or self.one:
                    if si >= draw_end and not self.union() & fit:
                        return total + self.final(-1)
                    seat = nxt
                    continue
            if seat == stop and self.two_plays(hand, a, da, b, db):
                self.paused = (si, a, da, b, db)
                return total
            t, nv, nd, ov, od = self.pick(seat, si, hand, a, da, b, db)
            hand ^= 1 << t
            hands[seat] = hand
            if self.points:
                p = self.made(nv, nd, ov, od)
                if p:
                    total += self.weight[self.side_of[seat]] * p
            if not hand:
                return total + self.final(seat)
            if si >= draw_end and not self.union() & (NUM_MASK[nv] | NUM_MASK[ov]):
                return total + self.final(-1)
            a, da, b, db = nv, nd, ov, od
            seat = nxt

    @staticmethod
    def two_plays(hand: int, a: int, da: bool, b: int, db: bool) -> bool:
        """Whether ``hand`` has more than one play on the ends ``a``/``b`` (a
        tile that fits both ends is two plays, as in ``moves``)."""
        n = (hand & NUM_MASK[a]).bit_count()
        if n < 2 and (b != a or db != da):
            n += (hand & NUM_MASK[b]).bit_count()
        return n > 1


__all__ = [
    "LinePlay",
    "OutOfNodes",
    "RootPlay",
    "Solver",
    "line_plays",
    "mask_pips",
    "root_plays",
    "tile_list",
]
