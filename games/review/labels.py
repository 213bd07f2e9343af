"""Labels of a decision by its loss: inaccuracy, mistake, blunder.

The one place the thresholds live. A decision's *loss* is the expected margin
its side gave up against the best option (points: own side's minus the mean
of the other sides'; Spider's penalty points count against the side charged),
estimated over deals consistent with what the seat saw (``single``).

The thresholds below are **provisional**: set by hand from the size of a
typical hand's points in each scoring. ``bench/review_thresholds.py`` is the
self-play benchmark that settles them (docs/review.md, "Labels and their
thresholds", has its rule and a first small run, too small to replace them).
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


# Provisional (see the module docstring); to be settled by
# ``nice .venv/bin/python bench/review_thresholds.py --hands 200 --levels
# easy,medium,hard``. Pip-count scorings: a double-6 hand
# is typically worth 10 to 40 points to its winner; end-sum scorings move in
# fives; Catalan's blocked hand pays every pip in hands; Spider charges penalties.
THRESHOLDS: dict[str, Thresholds] = {
    "block": Thresholds(3.0, 8.0, 16.0),
    "draw": Thresholds(3.0, 8.0, 16.0),
    "cross": Thresholds(3.0, 8.0, 16.0),
    "grand_cross": Thresholds(4.0, 10.0, 20.0),
    "catalan": Thresholds(5.0, 12.0, 24.0),
    "all_fives": Thresholds(5.0, 10.0, 20.0),
    "fives_and_threes": Thresholds(5.0, 10.0, 20.0),
    "fives": Thresholds(5.0, 10.0, 20.0),
    "spider": Thresholds(4.0, 10.0, 20.0),
}

# A loss is labelled only when it exceeds this many standard errors of its
# estimate (the paired difference over the sampled deals): sampling noise is
# never called a mistake.
MIN_Z = 2.0


def label_for(variant: str, loss: float, error: float = 0.0) -> str | None:
    """The label of a decision that lost ``loss`` points of margin, estimated
    with standard error ``error``; ``None`` below the inaccuracy threshold or
    within the noise."""
    if loss <= MIN_Z * error:
        return None
    t = THRESHOLDS[variant]
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
    "MISTAKE",
    "MIN_Z",
    "THRESHOLDS",
    "Thresholds",
    "label_for",
]
