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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.bots.board import rules_of
from games.engine.layout import attach, ends_mask, open_layout
from games.engine.state import CLOSED, End

Limit = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden part of a hand as the viewing seat knows it."""

    seat: int
    unseen: int  # bitmask: tiles in other hands or the stock
    counts: tuple[int, ...]  # tiles per seat
    stock_count: int
    limits: tuple[tuple[Limit, ...], ...]  # per seat; empty for the viewer

    def lacks(self, seat: int) -> int:
        """Tiles (mask) ``seat`` surely does not hold."""
        out = 0
        for mask, allow in self.limits[seat]:
            if allow <= 0:
                out |= mask
        return out & self.unseen


def knowledge_of(view: dict[str, Any]) -> Knowledge:
    """Read the view's public log into a ``Knowledge``."""
    ps = view["public_state"]
    r = rules_of(view)
    seat: int = view["seat"]
    seen: int = ps["hands"][seat]
    limits: list[list[list[int]]] = [[] for _ in range(r.seats)]
    ends: tuple[End, ...] = ()
    spinner, spun = -1, False
    for e in ps["log"]:
        kind = e[0]
        if kind == "play":
            s, t = e[1], e[2]
            seen |= 1 << t
            if not ends:
                ends, spinner = open_layout(r.layout, t)
            else:
                i = next(k for k, x in enumerate(ends) if x[0] == e[3])
                ends, spinner, spun = attach(r.layout, ends, i, t, spinner, spun)
            for lim in limits[s]:
                if lim[0] >> t & 1:
                    lim[1] = max(0, lim[1] - 1)
        elif kind == "close":
            ends = tuple(
                (x[0], x[1], x[2] | CLOSED) if x[0] in e[2] else x for x in ends
            )
        elif kind in ("pass", "draw") and ends:
            s = e[1]
            if s != seat:
                limits[s].append([ends_mask(ends), 0])
            if kind == "draw":
                for lim in limits[s]:
                    lim[1] += 1
    unseen = r.full & ~seen
    return Knowledge(
        seat=seat,
        unseen=unseen,
        counts=tuple(view["hand_counts"]),
        stock_count=view["stock_count"],
        limits=tuple(_prune(ls, unseen) for ls in limits),
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


__all__ = ["Knowledge", "Limit", "fits", "knowledge_of"]
