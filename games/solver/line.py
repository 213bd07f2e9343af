"""The line layouts on bit masks: Block, Draw, All Fives, Fives and Threes,
Catalan.

A position is a plain tuple ``(hands, seat, stock, a, da, b, db)``: hand bit
masks per seat, the seat to decide, the stock's tiles in draw order and the
two ends' values with their double flags (``a`` = -1 before the opening
tile). The engine's rules for a line are repeated here, as
``games.engine.rules`` and ``games.engine.scoring`` state them, and the tests
hold this game to the engine's own states move for move and value for value:

* a play scores its end-sum at once (the claim convention of ``game``; the
  match target never ends the hand, as ``game`` says);
* no play: ``block`` passes; ``draw`` and ``catalan`` draw until a tile fits
  (then the same seat plays) or the stock is empty (then it passes);
  ``all_fives`` and ``fives_and_threes`` draw one tile (never the last two) and
  the turn ends; the hand is blocked once no seat can play and none may draw;
* the hand bonus is ``games.engine.scoring.score_hand``'s
  (``scoring.hand_points``).

Two ends with the same value and double flag are one place for a tile: only
one of the two plays is a move (the engine offers both; they lead to mirror
images with the same value).

Besides the game the search walks (``children``, ``first``), ``greedy`` is a
second playout policy for the hard player's leaves: it sees the next seat's
hand and prefers leaving it without a play. ``line_plays`` lists a hand's plays
on two ends for the bot's own playouts.
"""

from __future__ import annotations

from collections.abc import Hashable

from games.engine import State
from games.engine.options import Rules, rules_for
from games.engine.state import DBL
from games.engine.tiles import IS_DOUBLE, NUM_MASK, PIPS, TILE_HI, TILE_LO
from games.engine.variants import LINE, STOCK_NONE, STOCK_ONE
from games.solver.game import (
    BLOCKED,
    OUT_BONUS,
    Child,
    EngineEntry,
    Finish,
    Points,
    plays_left,
    points_add,
    union,
)
from games.solver.scoring import end_sum_table, hand_points, tile_list

LinePos = tuple[tuple[int, ...], int, tuple[int, ...], int, bool, int, bool]

_BLOCKED, _MOVED_ON, _PLAYS = 0, 1, 2  # ``_rollout_stuck``'s outcomes
W_BLOCK = 10  # the greedy policy: the next seat left without a play

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


class LineGame(EngineEntry):
    """One deal of a line layout on bit masks (``game.DealGame``).

    ``opening``: the tiles the first play may use (0: any), read from the
    state a position before the opening comes from."""

    def __init__(self, r: Rules, opening: int = 0) -> None:
        if r.layout != LINE:
            raise ValueError("LineGame plays the line layouts only")
        self.r = r
        self.n_sides = r.n_sides
        self.seats = r.seats
        self.side_of = r.side_of
        self.points = r.end_scoring
        self.sums = end_sum_table(r.scoring) if r.end_scoring else ()
        self.one = r.stock == STOCK_ONE
        self.none = r.stock == STOCK_NONE
        self.reserve = r.reserve
        self.opening = opening
        self.zero: Points = (0,) * r.n_sides

    @classmethod
    def of_state(cls, state: State) -> LineGame:
        """The game of ``state``'s deal."""
        opening = 0
        for t in state.opening:
            opening |= 1 << t
        return cls(rules_for(state.options), opening)

    # ------------------------------------------------------------ protocol

    def mover_side(self, pos: LinePos) -> int:
        return self.side_of[pos[1]]

    def plays_left(self, pos: LinePos) -> int:
        return plays_left(self.r, pos[0], len(pos[2]))

    def key(self, pos: LinePos) -> Hashable:
        hands, seat, stock, a, da, b, db = pos
        if (a, da) > (b, db):
            return (hands, seat, stock, b, db, a, da)
        return pos

    def position(self, s: State) -> LinePos:
        """The position of a live engine state of this deal (play phase)."""
        if s.played:
            (_, a, fa), (_, b, fb) = s.ends
            ends = (a, bool(fa & DBL), b, bool(fb & DBL))
        else:
            ends = (-1, False, -1, False)
        return (s.hands, s.turn, s.stock, *ends)

    # ------------------------------------------------------------ moves

    def _drawable(self, stock: tuple[int, ...]) -> bool:
        return not self.none and len(stock) > self.reserve

    def _drawable_at(self, stock: tuple[int, ...], si: int) -> bool:
        """``_drawable`` of the stock from its ``si``-th tile on."""
        return not self.none and len(stock) - si > self.reserve

    def _next(
        self,
        hands: tuple[int, ...],
        seat: int,
        stock: tuple[int, ...],
        a: int,
        da: bool,
        b: int,
        db: bool,
        move: object,
        pts: Points,
        placed: int,
    ) -> Child[LinePos]:
        """The engine's ``_finish``: out, blocked, or the next seat's turn."""
        if not hands[seat]:
            bonus = hand_points(self.r, hands, seat)
            fin = Finish("out", seat)
            return move, points_add(pts, bonus), None, fin, placed
        if not self._drawable(stock) and not union(hands) & (NUM_MASK[a] | NUM_MASK[b]):
            return (
                move,
                points_add(pts, hand_points(self.r, hands, -1)),
                None,
                BLOCKED,
                placed,
            )
        nxt = seat + 1 if seat + 1 < self.seats else 0
        return move, pts, (hands, nxt, stock, a, da, b, db), None, placed

    def play(
        self,
        pos: LinePos,
        t: int,
        a: int,
        da: bool,
        b: int,
        db: bool,
        made: int | None = None,
    ) -> Child[LinePos]:
        """The seat to move places ``t``, leaving the ends ``a``/``b``;
        ``made``: the end-sum points, claimed at once (computed when
        ``None``; the opening tile counts its two halves once)."""
        hands, seat, stock = pos[0], pos[1], pos[2]
        if made is None:
            made = 0
            if self.sums:
                if pos[3] < 0:
                    made = self.sums[TILE_LO[t] + TILE_HI[t]]
                else:
                    made = self.sums[(a + a if da else a) + (b + b if db else b)]
        new = list(hands)
        new[seat] = hands[seat] & ~(1 << t)
        pts = self.zero
        if made:
            p = list(pts)
            p[self.side_of[seat]] = made
            pts = tuple(p)
        return self._next(tuple(new), seat, stock, a, da, b, db, t, pts, 1)

    def _stuck(self, pos: LinePos) -> Child[LinePos]:
        """The forced step of a seat with no play: draw(s) or pass."""
        hands, seat, stock, a, da, b, db = pos
        fit = NUM_MASK[a] | NUM_MASK[b]
        if not self._drawable(stock):
            return self._next(hands, seat, stock, a, da, b, db, "pass", self.zero, 0)
        hand = hands[seat]
        new = list(hands)
        if self.one:
            new[seat] = hand | 1 << stock[0]
            return self._next(
                tuple(new), seat, stock[1:], a, da, b, db, "draw", self.zero, 0
            )
        while not hand & fit and stock:
            hand |= 1 << stock[0]
            stock = stock[1:]
        new[seat] = hand
        nh = tuple(new)
        if hand & fit:
            return "draw", self.zero, (nh, seat, stock, a, da, b, db), None, 0
        if not union(nh) & fit:
            return "draw", hand_points(self.r, nh, -1), None, BLOCKED, 0
        nxt = seat + 1 if seat + 1 < self.seats else 0
        return "draw", self.zero, (nh, nxt, stock, a, da, b, db), None, 0

    def _options(
        self, pos: LinePos
    ) -> list[tuple[int, int, int, int, bool, int, bool, int]]:
        """Every play at ``pos`` as (guess, order, tile, end values and flags
        it leaves, points made), without building the next positions."""
        hands, seat, _, a, da, b, db = pos
        hand = hands[seat]
        sums = self.sums
        out = []
        if a < 0:
            for t in tile_list(hand & self.opening if self.opening else hand):
                lo, hi = TILE_LO[t], TILE_HI[t]
                d = IS_DOUBLE[t]
                made = sums[lo + hi] if sums else 0
                out.append((self._guess(t, made, hand), t, t, lo, d, hi, d, made))
            return out
        for which in (0, 1):
            if which == 0:
                v, ov, od = a, b, db
            else:
                if b == a and db == da:
                    break
                v, ov, od = b, a, da
            for t in tile_list(hand & NUM_MASK[v]):
                lo = TILE_LO[t]
                nv = TILE_HI[t] if lo == v else lo
                nd = IS_DOUBLE[t]
                made = 0
                if sums:
                    made = sums[(nv + nv if nd else nv) + (ov + ov if od else ov)]
                guess = self._guess(t, made, hand)
                out.append((guess, 2 * t + which, t, nv, nd, ov, od, made))
        return out

    def _stuck_at(self, pos: LinePos) -> bool:
        hands, seat, _, a, _, b, _ = pos
        return a >= 0 and not hands[seat] & (NUM_MASK[a] | NUM_MASK[b])

    def children(self, pos: LinePos) -> list[Child[LinePos]]:
        if self._stuck_at(pos):
            return [self._stuck(pos)]
        opts = self._options(pos)
        opts.sort(key=lambda x: (-x[0], x[1]))
        # ``play`` for each option, with what they share worked out once
        hands, seat, stock = pos[0], pos[1], pos[2]
        hand = hands[seat]
        others = 0
        for i, h in enumerate(hands):
            if i != seat:
                others |= h
        open_stock = self._drawable(stock)
        nxt = seat + 1 if seat + 1 < self.seats else 0
        side = self.side_of[seat]
        zero = self.zero
        new = list(hands)
        out: list[Child[LinePos]] = []
        for _, _, t, a, da, b, db, made in opts:
            rest = hand & ~(1 << t)
            new[seat] = rest
            nh = tuple(new)
            pts = zero
            if made:
                p = list(zero)
                p[side] = made
                pts = tuple(p)
            if not rest:
                bonus = hand_points(self.r, nh, seat)
                out.append((t, points_add(pts, bonus), None, Finish("out", seat), 1))
            elif not open_stock and not (others | rest) & (NUM_MASK[a] | NUM_MASK[b]):
                bonus = hand_points(self.r, nh, -1)
                out.append((t, points_add(pts, bonus), None, BLOCKED, 1))
            else:
                out.append((t, pts, (nh, nxt, stock, a, da, b, db), None, 1))
        return out

    def first(self, pos: LinePos) -> Child[LinePos]:
        """``children(pos)[0]``, building no other move."""
        if self._stuck_at(pos):
            return self._stuck(pos)
        _, _, t, a, da, b, db, m = min(self._options(pos), key=lambda x: (-x[0], x[1]))
        return self.play(pos, t, a, da, b, db, m)

    def greedy(self, pos: LinePos) -> Child[LinePos]:
        """The hard player's playout policy: weight, doubles, points made
        (twice) and the next seat left without a play (a partner: the
        reverse), seeing the next seat's hand; the first best play of
        ``line_plays``'s order."""
        hands, seat, _, a, da, b, db = pos
        if a < 0:
            return self.first(pos)
        if self._stuck_at(pos):
            return self._stuck(pos)
        nxt = seat + 1 if seat + 1 < self.seats else 0
        foe = self.side_of[nxt] != self.side_of[seat]
        return self.play(pos, *self._pick(hands[seat], hands[nxt], foe, a, da, b, db))

    def _pick(
        self, hand: int, nh: int, foe: bool, a: int, da: bool, b: int, db: bool
    ) -> tuple[int, int, bool, int, bool, int]:
        """``greedy``'s play for ``hand`` (some tile fits), the next seat
        holding ``nh`` (``foe``: an opponent): (tile, the end it leaves and its
        flag, the other end and its flag, the points made)."""
        sums = self.sums
        best_v = -1e18
        best = (0, 0, False, 0, False, 0)
        for which in (0, 1):
            if which == 0:
                v, ov, od = a, b, db
            else:
                if b == a and db == da:
                    break
                v, ov, od = b, a, da
            m = hand & NUM_MASK[v]
            while m:
                low = m & -m
                m ^= low
                t = low.bit_length() - 1
                lo = TILE_LO[t]
                nv = TILE_HI[t] if lo == v else lo
                nd = IS_DOUBLE[t]
                made = (
                    sums[(nv + nv if nd else nv) + (ov + ov if od else ov)]
                    if sums
                    else 0
                )
                val = PIPS[t] + (3.0 if nd else 0.0) + 2 * made
                if not nh & (NUM_MASK[nv] | NUM_MASK[ov]):
                    val += W_BLOCK if foe else -W_BLOCK
                if val > best_v:
                    best_v = val
                    best = (t, nv, nd, ov, od, made)
        return best

    def greedy_rollout(self, pos: LinePos) -> tuple[Points, Finish, int] | None:
        """``greedy`` played from ``pos`` to the hand's end in one loop, on a
        list of hands changed in place: the points each side makes, how the
        hand ends and the steps taken (each a step of the policy: a play, a
        pass, or a seat's draws). ``None`` before the opening tile."""
        hands_t, seat, stock, a, da, b, db = pos
        if a < 0:
            return None
        hands = list(hands_t)
        n = self.seats
        side_of = self.side_of
        pts = [0] * self.n_sides
        # draws are allowed while ``si`` is below ``limit`` (``_drawable_at``)
        limit = -1 if self.none else len(stock) - self.reserve
        si = 0
        steps = 0
        while True:
            steps += 1
            hand = hands[seat]
            fit = NUM_MASK[a] | NUM_MASK[b]
            nxt = seat + 1 if seat + 1 < n else 0
            if not hand & fit:
                si, went = self._rollout_stuck(hands, seat, stock, si, fit)
                if went == _BLOCKED:
                    return self._ended(pts, hands, -1, steps)
                if went == _MOVED_ON:
                    seat = nxt
                continue
            foe = side_of[nxt] != side_of[seat]
            t, a, da, b, db, made = self._pick(hand, hands[nxt], foe, a, da, b, db)
            hand ^= 1 << t
            hands[seat] = hand
            pts[side_of[seat]] += made
            if not hand:
                return self._ended(pts, hands, seat, steps)
            if si >= limit and not union(hands) & (NUM_MASK[a] | NUM_MASK[b]):
                return self._ended(pts, hands, -1, steps)
            seat = nxt

    def _rollout_stuck(
        self, hands: list[int], seat: int, stock: tuple[int, ...], si: int, fit: int
    ) -> tuple[int, int]:
        """``_stuck`` in place, the stock read from ``si``: the new ``si``
        and whether the hand is blocked, the turn moves on, or the same seat
        now plays."""
        hand = hands[seat]
        if not self._drawable_at(stock, si):
            return si, _BLOCKED if not union(hands) & fit else _MOVED_ON
        if self.one:
            hands[seat] = hand | 1 << stock[si]
            si += 1
            if not self._drawable_at(stock, si) and not union(hands) & fit:
                return si, _BLOCKED
            return si, _MOVED_ON
        while not hand & fit and si < len(stock):
            hand |= 1 << stock[si]
            si += 1
        hands[seat] = hand
        if hand & fit:
            return si, _PLAYS
        return si, _BLOCKED if not union(hands) & fit else _MOVED_ON

    def _ended(
        self, pts: list[int], hands: list[int], out_seat: int, steps: int
    ) -> tuple[Points, Finish, int]:
        """A rollout's end: its points with the hand's bonus, how it ended."""
        bonus = hand_points(self.r, tuple(hands), out_seat)
        fin = Finish("out", out_seat) if out_seat >= 0 else BLOCKED
        return points_add(tuple(pts), bonus), fin, steps

    @staticmethod
    def _guess(t: int, made: int, hand: int) -> int:
        """The mover's liking for a play: going out, points, weight, doubles."""
        v = PIPS[t] + (3 if IS_DOUBLE[t] else 0) + 2 * made
        if hand == 1 << t:
            v += OUT_BONUS
        return v


__all__ = ["LineGame", "LinePlay", "LinePos", "line_plays"]
