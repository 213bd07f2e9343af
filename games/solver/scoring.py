"""The engine's scoring on bit masks: a hand's bonus, end-sums, pips.

``games.engine.scoring.score_hand`` builds a whole JSON-ready breakdown; a search
needs only the points per side and the winning side, thousands of times per
decision. ``hand_result`` gives those two, as ``score_hand`` computes them for
every scoring (the tests compare the two on random hands); ``end_sum_table``
looks an end-sum's points up instead of computing them.
"""

from __future__ import annotations

from functools import cache

from games.engine.options import Rules
from games.engine.scoring import end_points, round5
from games.engine.tiles import MAX_PIPS, PIPS

Points = tuple[int, ...]

_PIPS: dict[int, int] = {}
_PIPS_MAX = 500_000  # masks remembered at most (a few MB)


def mask_pips(mask: int) -> int:
    """Pips of a hand (remembered per mask)."""
    p = _PIPS.get(mask)
    if p is None:
        p = 0
        m = mask
        while m:
            low = m & -m
            p += PIPS[low.bit_length() - 1]
            m ^= low
        if len(_PIPS) < _PIPS_MAX:
            _PIPS[mask] = p
    return p


def tile_list(mask: int) -> list[int]:
    """The tiles of a bit mask, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@cache
def end_sum_table(scoring: str) -> tuple[int, ...]:
    """``end_points`` of every end-sum, by the sum (up to four ends each showing
    a double: 8 x ``MAX_PIPS``)."""
    return tuple(end_points(scoring, x) for x in range(8 * MAX_PIPS + 1))


def hand_result(r: Rules, hands: tuple[int, ...], out_seat: int) -> tuple[Points, int]:
    """The hand bonus per side (``score_hand``'s deltas) and the winning side
    (-1 on a tie): ``out_seat`` went out, or -1 for a blocked hand."""
    side_of = r.side_of
    n_sides = r.n_sides
    spider = r.scoring == "spider"
    pips = [25 if spider and h == 1 else mask_pips(h) for h in hands]
    side_pips = [0] * n_sides
    for s, p in enumerate(pips):
        side_pips[side_of[s]] += p
    deltas = [0] * n_sides
    base = 0
    if out_seat >= 0:
        ws = side_of[out_seat]
    else:
        low = min(side_pips)
        if side_pips.count(low) > 1:
            return tuple(deltas), -1
        ws = side_pips.index(low)
        base = low
    if spider:
        for s, p in enumerate(pips):
            if side_of[s] != ws:
                deltas[side_of[s]] += p
        return tuple(deltas), ws
    if r.scoring == "catalan" and out_seat < 0:
        total = sum(side_pips)
    else:
        fives = r.scoring == "all_fives"
        total = 0
        for i, p in enumerate(side_pips):
            if i != ws:
                total += round5(p - base) if fives else p - base
        if r.scoring == "fives":
            total = round5(total)
    deltas[ws] = total
    return tuple(deltas), ws


def hand_points(r: Rules, hands: tuple[int, ...], out_seat: int) -> Points:
    """``hand_result``'s points per side."""
    return hand_result(r, hands, out_seat)[0]


__all__ = [
    "Points",
    "end_sum_table",
    "hand_points",
    "hand_result",
    "mask_pips",
    "tile_list",
]
