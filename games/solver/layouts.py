"""The layouts that are not a line on bit masks: Cross, Grand Cross, the Fives
spinner, Spider.

A position is a plain tuple ``(hands, seat, stock, ends, spin, close)``:

* ``hands``: a bit mask per seat; ``seat``: the seat to decide; ``stock``: the
  stock's tiles in draw order;
* ``ends``: every open place as one int, ``value << 5 | flags`` (the engine's
  end flags: ``DBL``, ``CLOSED``, ``SPIN``, ``FILL``, ``BARE``), sorted, so two
  layouts that differ only in where their arms point are one position; ``()``
  before the opening tile;
* ``spin`` (Fives): -1 while no spinner is down, its value while its short
  sides are shut, ``SPUN`` once they are open; -1 in the other layouts;
* ``close`` (Spider): the values of the doubles the seat has just laid and may
  close, ``()`` in the play phase.

The engine's rules for these layouts (``games.engine.layout``,
``games.engine.rules``) are repeated here and the tests hold this game to the
engine's states move for move and value for value. Ends with the same value
and flags are one place for a tile (the engine names them apart: the four
empty arms of a Cross, say), so their plays are one move; Spider's multi-double
move lays each double on one end of its value (every such end is alike: its
tip is no double, since the double of that value is the one being laid).
A scoring play's points count at once (the Fives layout scores without
claims).
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import combinations

from games.engine import State
from games.engine.options import Rules, rules_for
from games.engine.state import BARE, CLOSED, DBL, FILL, PHASE_CLOSE, SPIN
from games.engine.tiles import (
    DOUBLES_MASK,
    IS_DOUBLE,
    NUM_MASK,
    PIPS,
    TILE_HI,
    TILE_LO,
)
from games.engine.variants import (
    GRAND_CROSS,
    LINE,
    SPIDER,
    SPINNER,
    STOCK_NONE,
    STOCK_ONE,
)
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

Ends = tuple[int, ...]
LayoutPos = tuple[tuple[int, ...], int, tuple[int, ...], Ends, int, tuple[int, ...]]

SPUN = -2
_VALUE = 5  # an end's value is ``code >> _VALUE``
_FLAGS = (1 << _VALUE) - 1


def end_code(value: int, flags: int) -> int:
    """One open place as an int (the module docstring)."""
    return value << _VALUE | flags


def fits(ends: Ends) -> int:
    """Bit mask of the tiles that fit a playable end (Cross: the empty arms
    first; never a closed end)."""
    m = 0
    fill = False
    for e in ends:
        if e & FILL:
            if not fill:
                fill, m = True, 0
            m |= NUM_MASK[e >> _VALUE]
        elif not fill and not e & CLOSED:
            m |= NUM_MASK[e >> _VALUE]
    return m


def playable(ends: Ends) -> list[int]:
    """The distinct end codes a tile may go on now."""
    fill = [e for e in ends if e & FILL]
    pool = fill or [e for e in ends if not e & CLOSED]
    out: list[int] = []
    for e in pool:
        if not out or out[-1] != e:  # ``ends`` is sorted
            out.append(e)
    return out


def end_sum(ends: Ends) -> int:
    """The engine's ``layout.end_sum`` once more than one tile is down."""
    total = 0
    for e in ends:
        if e & (CLOSED | BARE):
            continue
        v = e >> _VALUE
        total += v + v if e & DBL else v
    return total


def _replace(ends: Ends, old: int, new: tuple[int, ...]) -> Ends:
    """``ends`` with one ``old`` taken out and ``new`` put in, sorted."""
    lst = list(ends)
    lst.remove(old)
    lst.extend(new)
    lst.sort()
    return tuple(lst)


class LayoutGame(EngineEntry):
    """One deal of a Cross, Grand Cross, Fives or Spider layout on bit masks
    (``game.DealGame``); ``opening``: the tiles the first play may use (0:
    any)."""

    def __init__(self, r: Rules, opening: int = 0) -> None:
        if r.layout == LINE:
            raise ValueError("the line layouts are LineGame's")
        self.r = r
        self.layout = r.layout
        self.n_sides = r.n_sides
        self.seats = r.seats
        self.side_of = r.side_of
        self.sums = end_sum_table(r.scoring) if r.end_scoring else ()
        self.one = r.stock == STOCK_ONE
        self.none = r.stock == STOCK_NONE
        self.reserve = r.reserve
        self.opening = opening
        self.zero: Points = (0,) * r.n_sides
        self.penalties = r.scoring == "spider"

    @classmethod
    def of_state(cls, state: State) -> LayoutGame:
        """The game of ``state``'s deal."""
        opening = 0
        for t in state.opening:
            opening |= 1 << t
        return cls(rules_for(state.options), opening)

    # ------------------------------------------------------------ protocol

    def mover_side(self, pos: LayoutPos) -> int:
        return self.side_of[pos[1]]

    def plays_left(self, pos: LayoutPos) -> int:
        return plays_left(self.r, pos[0], len(pos[2]))

    def key(self, pos: LayoutPos) -> Hashable:
        return pos

    def position(self, s: State) -> LayoutPos:
        """The position of a live engine state of this deal (play or close
        phase)."""
        ends = tuple(sorted(end_code(v, f) for _, v, f in s.ends))
        spin = -1
        if self.layout == SPINNER and s.spinner >= 0:
            spin = SPUN if s.spun else TILE_LO[s.spinner]
        close: tuple[int, ...] = ()
        if s.phase == PHASE_CLOSE:
            close = tuple(sorted(v for eid, v, _ in s.ends if eid in s.to_close))
        return (s.hands, s.turn, s.stock, ends, spin, close)

    # ------------------------------------------------------------ rules

    def _drawable(self, stock: tuple[int, ...]) -> bool:
        return not self.none and len(stock) > self.reserve

    def _next(
        self,
        hands: tuple[int, ...],
        seat: int,
        stock: tuple[int, ...],
        ends: Ends,
        spin: int,
        move: object,
        pts: Points,
        placed: int,
    ) -> Child[LayoutPos]:
        """The engine's ``_finish``: out, blocked, or the next seat's turn."""
        if not hands[seat]:
            bonus = hand_points(self.r, hands, seat)
            return move, points_add(pts, bonus), None, Finish("out", seat), placed
        if not self._drawable(stock) and not union(hands) & fits(ends):
            return (
                move,
                points_add(pts, hand_points(self.r, hands, -1)),
                None,
                BLOCKED,
                placed,
            )
        nxt = seat + 1 if seat + 1 < self.seats else 0
        return move, pts, (hands, nxt, stock, ends, spin, ()), None, placed

    def _open(self, t: int) -> tuple[Ends, int, int]:
        """The ends after the opening tile ``t``, the spinner state and the
        points it makes (``layout.open_layout``)."""
        lo, hi = TILE_LO[t], TILE_HI[t]
        dbl = IS_DOUBLE[t]
        made = self.sums[lo + hi] if self.sums else 0
        if self.layout == SPINNER:
            f = DBL | SPIN if dbl else 0
            ends = tuple(sorted((end_code(lo, f), end_code(hi, f))))
            return ends, (lo if dbl else -1), made
        if self.layout == SPIDER:
            return (end_code(lo, DBL),) * 4, -1, made
        return (end_code(lo, DBL | FILL),) * 4, -1, made

    def _attach(self, ends: Ends, e: int, t: int, spin: int) -> tuple[Ends, int]:
        """``t`` put on the end ``e`` (``layout.attach``)."""
        v = e >> _VALUE
        lo = TILE_LO[t]
        nv = TILE_HI[t] if lo == v else lo
        layout = self.layout
        new: tuple[int, ...]
        if IS_DOUBLE[t]:
            if layout == SPINNER and spin == -1:
                new = (end_code(nv, DBL | SPIN),)
                spin = nv
            elif layout == GRAND_CROSS:
                new = (end_code(nv, DBL), end_code(nv, BARE), end_code(nv, BARE))
            else:
                new = (end_code(nv, DBL),)
        else:
            new = (end_code(nv, 0),)
        out = _replace(ends, e, new)
        if layout == SPINNER and spin >= 0:
            for x in out:
                if x & SPIN:
                    break
            else:
                bare = end_code(spin, BARE)
                out = tuple(sorted((*out, bare, bare)))
                spin = SPUN
        return out, spin

    def _points(self, seat: int, made: int) -> Points:
        if not made:
            return self.zero
        p = list(self.zero)
        p[self.side_of[seat]] = made
        return tuple(p)

    def _play(self, pos: LayoutPos, t: int, e: int) -> tuple[int, Child[LayoutPos]]:
        """(the guess, the move) of placing ``t`` on the end ``e`` (-1: the
        opening)."""
        hands, seat, stock, ends, spin, _ = pos
        hand = hands[seat] & ~(1 << t)
        new = list(hands)
        new[seat] = hand
        nh = tuple(new)
        if e < 0:
            ends2, spin2, made = self._open(t)
        else:
            ends2, spin2 = self._attach(ends, e, t, spin)
            made = self.sums[end_sum(ends2)] if self.sums else 0
        guess = self._guess(seat, t, made, hand)
        move = (t, e)
        if self.layout == SPIDER and IS_DOUBLE[t] and e >= 0 and hand:
            nxt = (nh, seat, stock, ends2, spin2, (TILE_LO[t],))
            return guess, (move, self.zero, nxt, None, 1)
        pts = self._points(seat, made)
        return guess, self._next(nh, seat, stock, ends2, spin2, move, pts, 1)

    def _combos(self, pos: LayoutPos) -> list[tuple[int, tuple[int, ...]]]:
        """Spider: every way to lay two or more doubles in one move, with its
        guess (the doubles' weight and, going out, ``OUT_BONUS``)."""
        hands, seat, _, ends, _, _ = pos
        hand = hands[seat]
        open_v = 0
        for e in ends:
            if not e & CLOSED:
                open_v |= 1 << (e >> _VALUE)
        ds = [t for t in tile_list(hand & DOUBLES_MASK) if open_v >> TILE_LO[t] & 1]
        out: list[tuple[int, tuple[int, ...]]] = []
        for k in range(2, len(ds) + 1):
            for combo in combinations(ds, k):
                guess = sum(PIPS[t] + 3 for t in combo)
                if not hand & ~sum(1 << t for t in combo):
                    guess += OUT_BONUS
                out.append((guess, combo))
        return out

    def _lay(self, pos: LayoutPos, combo: tuple[int, ...]) -> Child[LayoutPos]:
        """Spider: the doubles of ``combo`` laid in one move, each on an open
        end of its value."""
        hands, seat, stock, ends, spin, _ = pos
        lst = list(ends)
        rest = hands[seat]
        for t in combo:
            d = TILE_LO[t]
            for i, e in enumerate(lst):
                if e >> _VALUE == d and not e & CLOSED:
                    lst[i] = end_code(d, DBL)
                    break
            rest &= ~(1 << t)
        lst.sort()
        ends2 = tuple(lst)
        new = list(hands)
        new[seat] = rest
        nh = tuple(new)
        k = len(combo)
        if rest:
            close = tuple(TILE_LO[t] for t in combo)
            return combo, self.zero, (nh, seat, stock, ends2, spin, close), None, k
        return self._next(nh, seat, stock, ends2, spin, combo, self.zero, k)

    def _closes(self, pos: LayoutPos) -> list[tuple[int, Child[LayoutPos]]]:
        """Spider's close phase: close any of the doubles just laid, or none."""
        hands, seat, stock, ends, spin, close = pos
        out: list[tuple[int, Child[LayoutPos]]] = [
            (0, self._next(hands, seat, stock, ends, spin, (), self.zero, 0))
        ]
        for k in range(1, len(close) + 1):
            for shut in combinations(close, k):
                ends2 = ends
                for d in shut:
                    ends2 = _replace(
                        ends2, end_code(d, DBL), (end_code(d, DBL | CLOSED),)
                    )
                kid = self._next(hands, seat, stock, ends2, spin, shut, self.zero, 0)
                out.append((-k, kid))
        return out

    def _stuck(self, pos: LayoutPos, fit: int) -> Child[LayoutPos]:
        """The forced step of a seat with no play: draw(s) or pass."""
        hands, seat, stock, ends, spin, _ = pos
        if not self._drawable(stock):
            return self._next(hands, seat, stock, ends, spin, "pass", self.zero, 0)
        hand = hands[seat]
        new = list(hands)
        if self.one:
            new[seat] = hand | 1 << stock[0]
            return self._next(
                tuple(new), seat, stock[1:], ends, spin, "draw", self.zero, 0
            )
        while not hand & fit and stock:
            hand |= 1 << stock[0]
            stock = stock[1:]
        new[seat] = hand
        nh = tuple(new)
        if hand & fit:
            return "draw", self.zero, (nh, seat, stock, ends, spin, ()), None, 0
        if not union(nh) & fit:
            return "draw", hand_points(self.r, nh, -1), None, BLOCKED, 0
        nxt = seat + 1 if seat + 1 < self.seats else 0
        return "draw", self.zero, (nh, nxt, stock, ends, spin, ()), None, 0

    def _moves(self, pos: LayoutPos) -> list[tuple[int, Child[LayoutPos]]]:
        hands, seat, _, ends, _, close = pos
        if close:
            return self._closes(pos)
        hand = hands[seat]
        if not ends:
            allowed = hand & self.opening if self.opening else hand
            return [self._play(pos, t, -1) for t in tile_list(allowed)]
        fit = fits(ends)
        if not hand & fit:
            return [(0, self._stuck(pos, fit))]
        out = [
            self._play(pos, t, e)
            for e in playable(ends)
            for t in tile_list(hand & NUM_MASK[e >> _VALUE])
        ]
        if self.layout == SPIDER:
            out.extend((g, self._lay(pos, combo)) for g, combo in self._combos(pos))
        return out

    def children(self, pos: LayoutPos) -> list[Child[LayoutPos]]:
        moves = self._moves(pos)
        order = sorted(range(len(moves)), key=lambda i: -moves[i][0])
        return [moves[i][1] for i in order]

    def first(self, pos: LayoutPos) -> Child[LayoutPos]:
        """``children(pos)[0]``, building only that move where no end-sum
        scores (a play's guess then needs no new layout)."""
        hands, seat, _, ends, _, close = pos
        if close or not ends or self.sums:
            moves = self._moves(pos)
            best = 0
            for i in range(1, len(moves)):
                if moves[i][0] > moves[best][0]:
                    best = i
            return moves[best][1]
        hand = hands[seat]
        fit = fits(ends)
        if not hand & fit:
            return self._stuck(pos, fit)
        top = -1
        play = (0, 0)
        for e in playable(ends):
            for t in tile_list(hand & NUM_MASK[e >> _VALUE]):
                g = self._guess(seat, t, 0, hand & ~(1 << t))
                if g > top:
                    top, play = g, (t, e)
        if self.layout == SPIDER:
            lay: tuple[int, ...] = ()
            for g, combo in self._combos(pos):
                if g > top:
                    top, lay = g, combo
            if lay:
                return self._lay(pos, lay)
        return self._play(pos, *play)[1]

    def _guess(self, seat: int, t: int, made: int, rest: int) -> int:
        """The mover's liking for a play: going out, points, weight shed,
        doubles."""
        v = PIPS[t] + (3 if IS_DOUBLE[t] else 0) + 2 * made
        if not rest:
            v += OUT_BONUS
        return v


__all__ = ["SPUN", "LayoutGame", "LayoutPos", "end_code", "end_sum", "fits"]
