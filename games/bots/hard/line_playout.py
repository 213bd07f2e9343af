"""One sampled deal of a line-layout hand played out on bit masks, and what a
hand's end is worth to ``hard``.

``SideValue`` is ``hard``'s value of a line of play for its side, the same in
its alpha-beta (``line_search``, as the ``games.solver`` search's objective)
and in its playouts (``LinePlayout.final``): in the scoring variants the points
made from the decision on (own side minus the mean of the others), elsewhere
the hand won (1), tied (0.5) or lost (0) plus a hundredth of that margin (as
``playouts.hand_value`` values an engine state).

``LinePlayout`` plays a deal out to the hand's end, every seat choosing by
``pick`` (a greedy policy seeing the next seat's hand; ``model_search`` plays
``medium``'s model instead), with the rules of ``games.solver.line``: a play
scores its end-sum at once; no play: ``block`` passes, ``draw``/``catalan``
draw until a tile fits, ``all_fives``/``fives_and_threes`` draw one tile (never
the last two) and the turn ends; the hand is blocked as soon as no seat can
play and none may draw. The walk (``walk``) can stop where a given seat next
has a choice, for a search that decides that move itself
(``model_search.ModelPlayout.branch``). The hands are mutated during a walk
and restored by ``playout``. Every step counts one unit; past ``cap`` units
``OutOfNodes`` is raised, so the work is bounded and deterministic.
"""

from __future__ import annotations

from games.engine.options import Rules
from games.engine.tiles import NUM_MASK, PIPS
from games.engine.variants import STOCK_NONE, STOCK_ONE
from games.solver import Finish, OutOfNodes, Points
from games.solver.line import W_BLOCK, line_plays
from games.solver.scoring import end_sum_table, hand_result


class SideValue:
    """``hard``'s value of a line for ``side`` (the module docstring); as a
    ``games.solver.Objective`` every other side lowers it (the "paranoid"
    assumption with more than two sides)."""

    def __init__(self, r: Rules, side: int) -> None:
        self.side = side
        self.side_of = r.side_of
        self.points = r.end_scoring
        other = -1.0 / max(1, r.n_sides - 1)
        self.weight = [1.0 if s == side else other for s in range(r.n_sides)]

    def maxing(self, side: int) -> bool:
        return side == self.side

    def _diff(self, pts: Points) -> float:
        total = 0.0
        for w, p in zip(self.weight, pts, strict=True):
            if p:
                total += w * p
        return total

    def edge(self, pts: Points) -> float:
        return self._diff(pts) if self.points else 0.0

    def end(self, pts: Points, finish: Finish) -> float:
        diff = self._diff(pts)
        if self.points:
            return diff
        if finish.reason == "out" and finish.seat is not None:
            winner = self.side_of[finish.seat]
        else:
            winner = max(range(len(pts)), key=lambda i: pts[i])
            if not pts[winner]:
                return 0.5 + 0.01 * diff
        return (1.0 if winner == self.side else 0.0) + 0.01 * diff

    def result(self, points: Points, winner: int) -> float:
        """The value of a hand's end: the points per side and the winning side
        (-1: a tie)."""
        diff = self._diff(points)
        if self.points:
            return diff
        if winner < 0:
            return 0.5 + 0.01 * diff
        return (1.0 if winner == self.side else 0.0) + 0.01 * diff


class LinePlayout:
    """One determinized deal; ``hands`` is mutated during a walk and restored
    by ``playout``."""

    def __init__(
        self,
        r: Rules,
        side: int,
        hands: list[int],
        stock: tuple[int, ...],
        cap: int,
    ) -> None:
        self.r = r
        self.seats = r.seats
        self.side_of = r.side_of
        self.side = side
        self.points = r.end_scoring
        self.scoring = r.scoring
        self.sum_points = end_sum_table(r.scoring) if r.end_scoring else ()
        self.one = r.stock == STOCK_ONE
        self.hands = hands
        self.stock = stock
        # the stock pointers below which a draw is allowed (``drawable``)
        self.draw_end = 0 if r.stock == STOCK_NONE else len(stock) - r.reserve
        self.cap = cap
        self.nodes = 0
        self.value = SideValue(r, side)
        self.weight = self.value.weight
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
        points, winner = hand_result(self.r, tuple(self.hands), out_seat)
        return self.value.result(points, winner)

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

    # ------------------------------------------------------------ playouts

    def stuck(self, seat: int, si: int, fit: int) -> None:
        """Hook: in a playout, ``seat`` has no play on the ends ``fit`` (a tile
        mask) with the stock at ``si``. Nothing to do for the greedy policy."""

    def pick(
        self, seat: int, si: int, hand: int, a: int, da: bool, b: int, db: bool
    ) -> tuple[int, int, bool, int, bool]:
        """The playout policy's play for ``seat`` holding ``hand`` (some tile
        fits): (tile, new end value, its double flag, other end, its flag).
        Greedy, seeing the next seat's hand (``games.solver.line.LineGame``'s
        ``greedy``)."""
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
        """Play by ``pick`` to the end of the hand, from ``seat``'s turn; the
        points made from here on (``final``'s units)."""
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


__all__ = ["LinePlayout", "SideValue"]
