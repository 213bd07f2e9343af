"""A whole hand's review: its decisions, its face-up line, each side's luck.

``hand_review(steps, seed=...)`` is what a worker runs once a hand is over
(``steps``: each state before an action, the seat and the action, from a
replay of the hand's log). The work is bounded by counted nodes, never by the
clock, so a review is the same on any machine; ``bench/review_cost.py``
measures what it costs. The budgets:

* ``single.DEFAULT_SAMPLES`` deals per decision, ``single.DEFAULT_MAX_NODES``
  nodes per deal (every option of the decision together);
* ``FACE_UP_NODES`` per position of the face-up line (the positions share one
  table, so a late position mostly reads what an early one found);
* ``LUCK_NODES`` for the deal's value from the hand's first decision.

A deeper review (a player's request) passes larger budgets. ``budget_for``
chooses them for a table: double-9 and double-12 sets and five-seat tables get
fewer deals and nodes (their positions are dearer), and say so (``reduced``),
so the page labels their figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine import Action, Options, State
from games.review.faceup import FaceUpStep, face_up_line
from games.review.luck import Luck, deal_luck
from games.review.single import (
    DEFAULT_MAX_NODES,
    DEFAULT_SAMPLES,
    DecisionReview,
    review_hand,
)

FACE_UP_NODES = 20_000
LUCK_NODES = 50_000


@dataclass(frozen=True, slots=True)
class Budget:
    """The work one review may do (module docstring); ``reduced``: less than
    the standard review of its depth, because the table is a large one."""

    samples: int
    max_nodes: int
    face_up_nodes: int
    luck_nodes: int
    reduced: bool = False


STANDARD = Budget(DEFAULT_SAMPLES, DEFAULT_MAX_NODES, FACE_UP_NODES, LUCK_NODES)
# A player's request: three times the deals, three times the nodes per deal.
DEEP = Budget(
    DEFAULT_SAMPLES * 3, DEFAULT_MAX_NODES * 3, FACE_UP_NODES * 3, LUCK_NODES * 3
)


def budget_for(options: Options, *, deep: bool = False) -> Budget:
    """The budget of a review of a hand played with ``options``: halved deals
    and nodes on double-9/12 sets and five-seat tables (``reduced``)."""
    base = DEEP if deep else STANDARD
    if options.set_max <= 6 and options.seats < 5:
        return base
    return Budget(
        max(4, base.samples // 2),
        base.max_nodes // 2,
        base.face_up_nodes // 2,
        base.luck_nodes // 2,
        reduced=True,
    )


@dataclass(frozen=True, slots=True)
class HandReview:
    """One hand reviewed: ``decisions`` as (step index, review) for every
    decision with a choice, ``face_up`` one entry per step of play, ``luck``
    per side."""

    decisions: tuple[tuple[int, DecisionReview], ...]
    face_up: tuple[FaceUpStep, ...]
    luck: Luck


def hand_review(
    steps: Sequence[tuple[State, int, Action]],
    *,
    seed: int,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_MAX_NODES,
    face_up_nodes: int = FACE_UP_NODES,
    luck_nodes: int = LUCK_NODES,
    progress: Callable[[int], None] | None = None,
) -> HandReview:
    """Review one finished hand (module docstring); ``steps`` must hold at
    least its first decision.

    ``progress(percent)``, when given, is called as the work advances (0 to
    100): each decision reviewed counts one part, the face-up line and the
    luck one part each."""
    if not steps:
        raise ValueError("a hand review needs the hand's steps")

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(min(100, 100 * done // max(1, total)))

    parts = 2

    def decided(done: int, total: int) -> None:
        report(done, total + parts)

    decisions = review_hand(
        steps, seed=seed, samples=samples, max_nodes=max_nodes, progress=decided
    )
    n = len(decisions)
    face_up = tuple(face_up_line(steps, max_nodes=face_up_nodes))
    report(n + 1, n + parts)
    luck = deal_luck(steps[0][0], max_nodes=luck_nodes)
    report(n + parts, n + parts)
    return HandReview(decisions=tuple(decisions), face_up=face_up, luck=luck)


def hand_review_with(
    steps: Sequence[tuple[State, int, Action]],
    budget: Budget,
    *,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> HandReview:
    """``hand_review`` at ``budget``."""
    return hand_review(
        steps,
        seed=seed,
        samples=budget.samples,
        max_nodes=budget.max_nodes,
        face_up_nodes=budget.face_up_nodes,
        luck_nodes=budget.luck_nodes,
        progress=progress,
    )


__all__ = [
    "DEEP",
    "FACE_UP_NODES",
    "LUCK_NODES",
    "STANDARD",
    "Budget",
    "HandReview",
    "budget_for",
    "hand_review",
    "hand_review_with",
]
