"""``medium``'s one-move score of a play on a line, from bit masks.

``medium.play_score`` reads a view; ``hard`` needs the same judgement thousands of
times per decision: to weigh sampled deals by how well they explain the
opponents' past plays (``inference``) and to play the opponents' moves in the
playouts of the scoring variants (``model_search``). This is that score for
one play on a line of play (two ends), with the same weights (imported from
``medium``, so the two cannot drift apart; the tests compare them on real
positions):

* ``t``: the tile played; ``nv``/``nd``: the value of the end it leaves and
  whether that end is a double; ``ov``/``od``: the other end;
* ``rest``: the hand after the play;
* ``may``: the tiles the next seat may hold (not seen by the player, not known
  to be lacked by that seat);
* ``sign``: +1 when the next seat is an opponent, -1 for a partner;
* ``scoring``: the variant's end-sum scoring (``"all_fives"``,
  ``"fives_and_threes"``) or ``None`` where end-sums score nothing;
* ``blocking``: ``counts_open_ends`` of the variant (``block``): ``medium``
  also counts its tiles on the open numbers.

Cost: the playouts call this millions of times, so what a line's ends are
worth and the most the next seat could score on them are looked up in tables
built once per scoring (``games.solver.scoring.end_sum_table``, ``_threat_tables``), not
computed per call: the same values for less CPU per decision
(``bench/search_cost.py --only all_fives``).
"""

from __future__ import annotations

from functools import cache

from games.bots.medium import (
    DOUBLE_OF,
    GOING_OUT,
    W_BLOCK,
    W_DOUBLE,
    W_KEEP,
    W_NARROW,
    W_OPEN_DOUBLE,
    W_OPEN_TILES,
    W_POINTS,
    W_THREAT,
    counts_open_ends,
)
from games.engine.scoring import end_points
from games.engine.tiles import (
    IS_DOUBLE,
    MAX_PIPS,
    NUM_MASK,
    PIPS,
    TILE_HI,
    TILE_LO,
    bits,
)
from games.solver.scoring import end_sum_table


@cache
def _threat_tables(scoring: str) -> list[list[tuple[tuple[int, int], ...]]]:
    """For each end value ``v`` and worth ``k`` of the other end (a double end
    counts both halves): the points a tile holding ``v`` makes played on ``v``,
    as (points, tiles) pairs, most points first."""
    tables = []
    for v in range(MAX_PIPS + 1):
        row = []
        for k in range(2 * MAX_PIPS + 1):
            by: dict[int, int] = {}
            for u in bits(NUM_MASK[v]):
                x = TILE_HI[u] if TILE_LO[u] == v else TILE_LO[u]
                p = end_points(scoring, (x + x if IS_DOUBLE[u] else x) + k)
                if p:
                    by[p] = by.get(p, 0) | 1 << u
            row.append(tuple(sorted(by.items(), reverse=True)))
        tables.append(row)
    return tables


def threat(scoring: str, nv: int, nd: bool, ov: int, od: bool, tiles: int) -> int:
    """Most end-sum points one play of any of ``tiles`` could make on the line
    with ends ``nv``/``ov``."""
    tables = _threat_tables(scoring)
    best = 0
    for v, k in ((nv, ov + ov if od else ov), (ov, nv + nv if nd else nv)):
        if tiles & NUM_MASK[v]:
            for p, mask in tables[v][k]:
                if p <= best:
                    break
                if tiles & mask:
                    best = p
                    break
    return best


def line_score(
    t: int,
    nv: int,
    nd: bool,
    ov: int,
    od: bool,
    rest: int,
    may: int,
    sign: float,
    scoring: str | None,
    blocking: bool = False,
) -> float:
    """``medium.play_score`` of playing ``t`` (see the module docstring)."""
    score = PIPS[t] + (W_DOUBLE if IS_DOUBLE[t] else 0.0)
    if not rest:
        return GOING_OUT + score
    fit = NUM_MASK[nv] | NUM_MASK[ov]
    kept = (rest & fit).bit_count()
    score += W_KEEP * (kept if kept < 3 else 3)
    if blocking:
        on = (rest & NUM_MASK[nv]).bit_count() + (rest & NUM_MASK[ov]).bit_count()
        held = rest >> DOUBLE_OF[nv] & 1
        if ov != nv:
            held += rest >> DOUBLE_OF[ov] & 1
        score += W_OPEN_TILES * on + W_OPEN_DOUBLE * held
    follow = may & fit
    if not follow:
        score += sign * W_BLOCK
    score -= sign * W_NARROW * follow.bit_count()
    if scoring is not None:
        score += (
            W_POINTS
            * end_sum_table(scoring)[(nv + nv if nd else nv) + (ov + ov if od else ov)]
        )
        if follow:
            score -= sign * W_THREAT * threat(scoring, nv, nd, ov, od, follow)
    return score


__all__ = ["counts_open_ends", "line_score", "threat"]
