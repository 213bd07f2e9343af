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

A deeper review (a player's request) passes larger budgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Action, State
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
) -> HandReview:
    """Review one finished hand (module docstring); ``steps`` must hold at
    least its first decision."""
    if not steps:
        raise ValueError("a hand review needs the hand's steps")
    return HandReview(
        decisions=tuple(
            review_hand(steps, seed=seed, samples=samples, max_nodes=max_nodes)
        ),
        face_up=tuple(face_up_line(steps, max_nodes=face_up_nodes)),
        luck=deal_luck(steps[0][0], max_nodes=luck_nodes),
    )


__all__ = ["FACE_UP_NODES", "LUCK_NODES", "HandReview", "hand_review"]
