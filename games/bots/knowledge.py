"""What the public history of the hand tells about the hidden tiles.

Decision: a seat's holdings are described by *limits* ``(mask, allowance)``: at
most ``allowance`` of the tiles in ``mask`` are in its hand. Every time a seat
passes or draws it had no tile fitting the board, which adds the limit
``(tiles fitting the board, 0)``; each later draw raises the allowance of all its
limits by one (the drawn tile is unknown and may fit), each later play of a tile
in the mask lowers it by one (that tile must have been a drawn one). This is
exact for every stock rule: in draw-until-playable variants the final drawn tile
is the one played, so the knowledge survives the draws, while the engine's own
``public_info`` conservatively forgets it at every draw.

The opening tells about the deal too (``opening_limits``). Where the rules
force the opening tile (the highest double, Spider's lowest, the heaviest tile
when nobody holds a double), the tiles the rule would have preferred were dealt
to nobody: every other seat starts with the limit ``(those tiles, 0)``, which
its draws then loosen like any other. Where the holder of the highest double
opens with any tile (All Fives, Fives and Threes), the viewer compares with its
own highest double at the deal: if it opened, no other seat was dealt a higher
double (a limit again); if another seat opened, that seat was dealt a higher
double, and as a dealt tile stays in the hand until played, it still holds one
unless it has played one (``musts``: at least one of these tiles).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.bots.board import rules_of
from games.engine.layout import attach, ends_mask, open_layout
from games.engine.options import Rules
from games.engine.state import CLOSED, End
from games.engine.tiles import DOUBLES_MASK, PIPS, TILE_HI, bits
from games.engine.variants import (
    HEAVIEST,
    HIGHEST_DOUBLE,
    HIGHEST_DOUBLE_ANY,
    LOWEST_DOUBLE,
    WINNER,
)

Limit = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden part of a hand as the viewing seat knows it."""

    seat: int
    unseen: int  # bitmask: tiles in other hands or the stock
    counts: tuple[int, ...]  # tiles per seat
    stock_count: int
    limits: tuple[tuple[Limit, ...], ...]  # per seat; empty for the viewer
    musts: tuple[int, ...] = ()  # per seat: holds at least one of these (0: no rule)

    def must(self, seat: int) -> int:
        """Tiles (mask) of which ``seat`` surely holds at least one (0: none)."""
        return self.musts[seat] if self.musts else 0

    def lacks(self, seat: int) -> int:
        """Tiles (mask) ``seat`` surely does not hold."""
        out = 0
        for mask, allow in self.limits[seat]:
            if allow <= 0:
                out |= mask
        return out & self.unseen


def _doubles_above(r: Rules, top: int) -> int:
    """The set's doubles higher than ``top`` (-1: every double)."""
    return sum(1 << t for t in bits(r.full & DOUBLES_MASK) if TILE_HI[t] > top)


def _highest_double(hand: int) -> int:
    """The value of ``hand``'s highest double, -1 if it holds none."""
    return max((TILE_HI[t] for t in bits(hand & DOUBLES_MASK)), default=-1)


def undealt(r: Rules, hand_no: int, tile: int) -> int:
    """The tiles no seat was dealt, read from a forced opening ``tile`` (0 where
    the opening is free or tells nothing)."""
    forced = r.opening == HIGHEST_DOUBLE or (r.opening == WINNER and hand_no == 1)
    double = r.full & DOUBLES_MASK
    if forced and double >> tile & 1:
        return _doubles_above(r, TILE_HI[tile])
    if forced and r.no_double == HEAVIEST:
        return double | sum(1 << t for t in bits(r.full) if PIPS[t] > PIPS[tile])
    if r.opening == LOWEST_DOUBLE and double >> tile & 1:
        d = TILE_HI[tile]
        return sum(
            1 << t for t in bits(double) if TILE_HI[t] and (TILE_HI[t] < d or d == 0)
        )
    return 0


def opening_limits(
    r: Rules, log: list[Any], seat: int, dealt: int
) -> tuple[int, int, int]:
    """(tiles no other seat was dealt, the opener, tiles of which the opener was
    dealt at least one) from the hand's opening; ``dealt``: the viewer's tiles at
    the deal."""
    if not log or log[0][0] != "start":  # a hand-built position: no deal known
        return 0, -1, 0
    hand_no, opener = log[0][1], log[0][3]
    first = next((e[2] for e in log if e[0] == "play"), -1)
    if first < 0:
        return 0, opener, 0
    if r.opening != HIGHEST_DOUBLE_ANY:
        return undealt(r, hand_no, first), opener, 0
    above = _doubles_above(r, _highest_double(dealt))
    if opener == seat:
        return above, opener, 0
    return 0, opener, above


class LogReplay:
    """The board and each seat's limits as a hand's public log unfolds (the
    one reading of the log that ``knowledge_of`` and ``inference`` share).

    A play moves the ends and uses up one allowance of every limit of the seat
    whose mask holds the tile; a pass or a draw on an open board shows the
    seat lacked every fitting tile (a limit with allowance 0, unless the seat
    is ``blind``: the viewer needs no limits on itself); a draw then loosens
    every limit of the seat by one."""

    def __init__(self, r: Rules, blind: int = -1) -> None:
        self.r = r
        self.blind = blind
        self.ends: tuple[End, ...] = ()
        self.spinner = -1
        self.spun = False
        self.limits: list[list[list[int]]] = [[] for _ in range(r.seats)]

    def lacks(self, seat: int) -> int:
        """Tiles ``seat`` is known to lack now (allowance 0)."""
        out = 0
        for mask, allow in self.limits[seat]:
            if allow <= 0:
                out |= mask
        return out

    def feed(self, e: list[Any]) -> None:
        """Read one log entry."""
        kind = e[0]
        if kind == "play":
            s, t = e[1], e[2]
            if not self.ends:
                self.ends, self.spinner = open_layout(self.r.layout, t)
            else:
                i = next(k for k, x in enumerate(self.ends) if x[0] == e[3])
                self.ends, self.spinner, self.spun = attach(
                    self.r.layout, self.ends, i, t, self.spinner, self.spun
                )
            for lim in self.limits[s]:
                if lim[0] >> t & 1:
                    lim[1] = max(0, lim[1] - 1)
        elif kind == "close":
            self.ends = tuple(
                (x[0], x[1], x[2] | CLOSED) if x[0] in e[2] else x for x in self.ends
            )
        elif kind in ("pass", "draw") and self.ends:
            s = e[1]
            if s != self.blind:
                self.limits[s].append([ends_mask(self.ends), 0])
            if kind == "draw":
                for lim in self.limits[s]:
                    lim[1] += 1


def _dealt(view: dict[str, Any]) -> int:
    """The viewer's tiles at the deal: held or played, not drawn."""
    ps = view["public_state"]
    seat: int = view["seat"]
    hand: int = ps["hands"][seat]
    played = drawn = 0
    for e in ps["log"]:
        if e[0] == "play" and e[1] == seat:
            played |= 1 << e[2]
        elif e[0] == "draw" and e[1] == seat:
            drawn |= 1 << e[2]
    return (hand | played) & ~drawn


def knowledge_of(view: dict[str, Any], own_deal: bool = True) -> Knowledge:
    """Read the view's public log into a ``Knowledge``; with ``own_deal``
    false, only what every seat can tell (not what the viewer's own tiles at
    the deal add where the opening is free: ``inference`` cannot know the other
    seats' tiles, so it models their knowledge without it)."""
    ps = view["public_state"]
    r = rules_of(view)
    seat: int = view["seat"]
    seen: int = ps["hands"][seat]
    log = ps["log"]
    none_of, opener, some_of = opening_limits(r, log, seat, _dealt(view))
    if not own_deal and r.opening == HIGHEST_DOUBLE_ANY:
        none_of = some_of = 0
    replay = LogReplay(r, blind=seat)
    if none_of:
        for s in range(r.seats):
            if s != seat:
                replay.limits[s].append([none_of, 0])
    for e in log:
        if e[0] == "play":
            seen |= 1 << e[2]
            if e[1] == opener and some_of >> e[2] & 1:
                some_of = 0  # one of them is played: the rest tells nothing
        replay.feed(e)
    unseen = r.full & ~seen
    musts = [0] * r.seats
    if some_of & unseen:
        musts[opener] = some_of & unseen
    return Knowledge(
        seat=seat,
        unseen=unseen,
        counts=tuple(view["hand_counts"]),
        stock_count=view["stock_count"],
        limits=tuple(_prune(ls, unseen) for ls in replay.limits),
        musts=tuple(musts),
    )


def _prune(limits: list[list[int]], unseen: int) -> tuple[Limit, ...]:
    """Keep the limits that say something about unseen tiles, tightest first."""
    out: list[Limit] = []
    for mask, allow in sorted(((m & unseen, a) for m, a in limits), key=lambda x: x[1]):
        if not mask or allow >= mask.bit_count():
            continue
        if any(m2 & mask == mask and a2 <= allow for m2, a2 in out):
            continue
        out.append((mask, allow))
    return tuple(out)


def fits(limits: tuple[Limit, ...], tile: int, taken: list[int] | None) -> bool:
    """Whether ``tile`` may join a hand that already holds ``taken[i]`` tiles of
    each limit's mask; with ``taken`` ``None``, only whether no limit forbids it
    outright (allowance 0)."""
    for i, (m, allow) in enumerate(limits):
        if m >> tile & 1 and (allow <= 0 if taken is None else taken[i] >= allow):
            return False
    return True


__all__ = [
    "Knowledge",
    "Limit",
    "LogReplay",
    "fits",
    "knowledge_of",
    "opening_limits",
    "undealt",
]
