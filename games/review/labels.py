"""Labels of a decision by its loss: inaccuracy, mistake, blunder; a loss in
points of margin, or, in a hand that can decide the match, in the chance of
winning it (``MATCH_THRESHOLDS``).

The one place the thresholds live. A decision's *loss* is the expected margin
its side gave up against the best option (points: own side's minus the mean
of the other sides'; Spider's penalty points count against the side charged),
estimated over deals consistent with what the seat saw (``single``).

The thresholds below come from self-play (``bench/review_thresholds.py``; its
rule and figures are in docs/review.md, "Labels and their thresholds").
"""

from __future__ import annotations

from typing import NamedTuple

INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
LABELS = (INACCURACY, MISTAKE, BLUNDER)


class Thresholds(NamedTuple):
    """Losses (points of margin) from which each label applies."""

    inaccuracy: float
    mistake: float
    blunder: float


# ``nice .venv/bin/python bench/review_thresholds.py --hands 12 --samples 16
# --max-nodes 2000 --luck-nodes 20000``, by the rule in docs/review.md: inaccuracy a
# fifth of a won hand, never below the noise floor; mistake half a won hand, at
# least twice that; blunder a whole won hand, at least twice the mistake.
THRESHOLDS: dict[str, Thresholds] = {
    "block": Thresholds(4.0, 8.0, 16.0),
    "draw": Thresholds(12.0, 24.0, 48.0),
    "cross": Thresholds(6.0, 12.0, 24.0),
    "grand_cross": Thresholds(10.0, 20.0, 40.0),
    "catalan": Thresholds(13.0, 26.0, 52.0),
    "all_fives": Thresholds(10.0, 20.0, 40.0),
    "fives_and_threes": Thresholds(11.0, 22.0, 44.0),
    "fives": Thresholds(11.0, 22.0, 44.0),
    "spider": Thresholds(12.0, 24.0, 48.0),
}

# A decision in a hand that can decide the match is valued by its side's chance
# of winning the match (``single``): its loss is a drop in that chance (0-1).
# The steps are the ones Lichess labels a drop in a player's winning chances by
# (0.1, 0.2 and 0.3 on its -1..1 scale, that is 5, 10 and 15 points of
# percentage).
MATCH_THRESHOLDS = Thresholds(0.05, 0.10, 0.15)

# A loss is labelled only when it exceeds this many standard errors of its
# estimate (the paired difference over the sampled deals): sampling noise is
# never called a mistake.
MIN_Z = 2.0


def thresholds_for(variant: str, *, match: bool = False) -> Thresholds:
    """The thresholds of a loss in points of ``variant``, or in the chance of
    winning the match (``match``)."""
    return MATCH_THRESHOLDS if match else THRESHOLDS[variant]


def label_for(
    variant: str, loss: float, error: float = 0.0, *, match: bool = False
) -> str | None:
    """The label of a decision that lost ``loss`` points of margin (``match``:
    ``loss`` of its side's chance of winning the match), estimated with standard
    error ``error``; ``None`` below the inaccuracy threshold or within the
    noise."""
    if loss <= MIN_Z * error:
        return None
    t = thresholds_for(variant, match=match)
    if loss >= t.blunder:
        return BLUNDER
    if loss >= t.mistake:
        return MISTAKE
    if loss >= t.inaccuracy:
        return INACCURACY
    return None


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "LABELS",
    "MATCH_THRESHOLDS",
    "MISTAKE",
    "MIN_Z",
    "THRESHOLDS",
    "Thresholds",
    "label_for",
    "thresholds_for",
]
