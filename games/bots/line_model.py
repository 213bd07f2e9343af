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
  ``"fives_and_threes"``) or ``None`` where end-sums score nothing.
"""

from __future__ import annotations

from games.bots.medium import (
    GOING_OUT,
    W_BLOCK,
    W_DOUBLE,
    W_KEEP,
    W_NARROW,
    W_POINTS,
    W_SPREAD,
    W_THREAT,
)
from games.engine.scoring import end_points
from games.engine.tiles import IS_DOUBLE, NUM_MASK, PIPS, TILE_HI, TILE_LO


def end_sum_points(scoring: str, a: int, da: bool, b: int, db: bool) -> int:
    """What a line whose ends are ``a`` and ``b`` scores (a double end counts
    both halves)."""
    return end_points(scoring, (a + a if da else a) + (b + b if db else b))


def _numbers(mask: int) -> int:
    seen = 0
    while mask:
        low = mask & -mask
        mask ^= low
        t = low.bit_length() - 1
        seen |= 1 << TILE_LO[t] | 1 << TILE_HI[t]
    return seen.bit_count()


def threat(scoring: str, nv: int, nd: bool, ov: int, od: bool, tiles: int) -> int:
    """Most end-sum points one play of any of ``tiles`` could make on the line
    with ends ``nv``/``ov``."""
    best = 0
    for v, keep, kd in ((nv, ov, od), (ov, nv, nd)):
        m = tiles & NUM_MASK[v]
        while m:
            low = m & -m
            m ^= low
            u = low.bit_length() - 1
            x = TILE_HI[u] if TILE_LO[u] == v else TILE_LO[u]
            p = end_sum_points(scoring, x, IS_DOUBLE[u], keep, kd)
            if p > best:
                best = p
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
) -> float:
    """``medium.play_score`` of playing ``t`` (see the module docstring)."""
    score = PIPS[t] + (W_DOUBLE if IS_DOUBLE[t] else 0.0)
    if not rest:
        return GOING_OUT + score
    fit = NUM_MASK[nv] | NUM_MASK[ov]
    if W_SPREAD:
        score += W_SPREAD * _numbers(rest)
    score += W_KEEP * min(3, (rest & fit).bit_count())
    follow = may & fit
    if not follow:
        score += sign * W_BLOCK
    score -= sign * W_NARROW * follow.bit_count()
    if scoring is not None:
        score += W_POINTS * end_sum_points(scoring, nv, nd, ov, od)
        score -= sign * W_THREAT * threat(scoring, nv, nd, ov, od, follow)
    return score


__all__ = ["end_sum_points", "line_score", "threat"]
