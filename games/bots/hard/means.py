"""A candidate's value over sampled deals: weighted means, and a gate.

Every search of ``hard`` ends with a row of values per deal (one value per
candidate) and the deal's log-weight (``inference``: how well it explains the
opponents' plays); these turn the rows into one value per candidate.
"""

from __future__ import annotations

import math


def weighted_means(rows: list[tuple[float, list[float]]], n: int) -> list[float]:
    """Mean of each column of values, each row weighted by exp(its log-weight)."""
    totals = [0.0] * n
    if not rows:
        return totals
    top = max(lw for lw, _ in rows)
    wsum = 0.0
    for lw, vals in rows:
        w = math.exp(lw - top)
        wsum += w
        for i, v in enumerate(vals):
            totals[i] += w * v
    return [t / wsum for t in totals]


def gated_means(rows: list[tuple[float, list[float]]], n: int, z: float) -> list[float]:
    """``weighted_means``, except that a candidate not clearly better than the
    first (``medium``'s favourite) cannot beat it.

    Unless its weighted mean paired difference with the first exceeds ``z``
    standard errors, a candidate's value is capped at the first's (ties go to
    the first). The standard error is that of a weighted mean: the unbiased
    weighted variance of the differences times the sum of the squared
    normalised weights (``1 / n`` for equal weights). ``z = 0`` changes nothing.
    Few or noisy deals would otherwise pick moves worse than the heuristic's.
    """
    means = weighted_means(rows, n)
    if not rows or n < 2:
        return means
    top = max(lw for lw, _ in rows)
    ws = [math.exp(lw - top) for lw, _ in rows]
    total = sum(ws)
    ws = [w / total for w in ws]
    sq = sum(w * w for w in ws)
    out = list(means)
    for i in range(1, n):
        d = means[i] - means[0]
        if d <= 0:
            continue
        if sq >= 1.0:  # one deal (or one that carries all the weight)
            out[i] = means[0]
            continue
        var = sum(
            w * (v[i] - v[0] - d) ** 2 for w, (_, v) in zip(ws, rows, strict=True)
        )
        var /= 1.0 - sq
        if d <= z * math.sqrt(var * sq):
            out[i] = means[0]
    return out
