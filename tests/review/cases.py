"""Real positions of the issue's reports, for the review's tests (pure) and the
pages' (``tests/games/test_reviews.py``).

* ``match_point_blunder``: All Fives to 100, seat 0 at 90. Ends 4 (left) and 5
  (right); seat 0 holds 4–5: on the left it makes 5 + 5 = 10 points and the
  match, on the right 4 + 4 = 8, nothing. The hand can decide the match.
* ``opening_1_1``: All Fives to 50, seat 0 opens holding 5–5 (10 points) and
  1–1 (2: nothing). Early in the hand no deal is solved to its end within the
  standard budget: the values are depth-limited guesses (which rate 1–1 above
  5–5).
"""

from __future__ import annotations

import functools

from games.engine import Action, State
from games.engine.tiles import PAIRS
from games.review.faceup import face_up_line
from games.review.hand import HandReview
from games.review.luck import deal_luck
from games.review.single import DecisionReview, review_decision
from tests.support.positions import play, rig

Pair = tuple[int, int]

# Every deal solved to the hand's end for the match-point decision (measured:
# exact at this allowance), so the only reason it is not judged is the match.
SETTLED_NODES = 20_000


def _stock(*hands: list[Pair]) -> list[Pair]:
    held = {tuple(sorted(t)) for h in hands for t in h}
    return [p for p in PAIRS if max(p) <= 6 and p not in held]


def match_point_position(*, scores: tuple[int, int] = (90, 40)) -> State:
    """Seat 0 to play 4–5 with the hand able to decide the match (above); with
    other ``scores``, the same decision early in a match."""
    mine: list[Pair] = [(2, 5), (4, 5), (0, 0), (1, 3), (6, 6)]
    theirs: list[Pair] = [(2, 4), (0, 6), (2, 3), (3, 5), (1, 2)]
    s = rig(
        "all_fives",
        [mine, theirs],
        stock=_stock(mine, theirs),
        target=100,
        scores=scores,
    )
    s = play(s, 0, (2, 5), "root")
    s = play(s, 1, (2, 4), "left")
    return s


SCORES_TEN = Action.play((4, 5), "left")
SCORES_NOTHING = Action.play((4, 5), "right")


@functools.cache
def match_point_blunder(*, seed: int = 1) -> DecisionReview:
    """4–5 played for nothing where it scored 10 and the match, reviewed."""
    review = review_decision(
        match_point_position(),
        0,
        SCORES_NOTHING,
        seed=seed,
        samples=16,
        max_nodes=SETTLED_NODES,
    )
    assert review is not None
    return review


@functools.cache
def early_blunder(*, seed: int = 1) -> DecisionReview:
    """The same 4–5 for nothing at 0–0: settled, judged, labelled."""
    review = review_decision(
        match_point_position(scores=(0, 0)),
        0,
        SCORES_NOTHING,
        seed=seed,
        samples=16,
        max_nodes=SETTLED_NODES,
    )
    assert review is not None
    return review


def opening_position() -> State:
    """Seat 0 opens All Fives to 50 holding 5–5 and 1–1 (above)."""
    mine: list[Pair] = [(5, 5), (1, 1), (0, 3), (2, 4), (1, 6)]
    theirs: list[Pair] = [(4, 4), (0, 6), (2, 3), (3, 5), (1, 2)]
    return rig("all_fives", [mine, theirs], stock=_stock(mine, theirs), target=50)


OPEN_1_1 = Action.play((1, 1), "root")
OPEN_5_5 = Action.play((5, 5), "root")
OPEN_0_3 = Action.play((0, 3), "root")


@functools.cache
def opening_decision(action: Action, *, seed: int = 1) -> DecisionReview:
    """Seat 0's opening ``action`` reviewed at the standard budget."""
    review = review_decision(opening_position(), 0, action, seed=seed)
    assert review is not None
    return review


def one_step_review(
    state: State, action: Action, decision: DecisionReview
) -> HandReview:
    """A hand review holding one decision (step 0), with its face-up step and the
    deal's luck, as the worker stores them."""
    steps = [(state, 0, action)]
    return HandReview(
        decisions=((0, decision),),
        face_up=tuple(face_up_line(steps, max_nodes=2_000)),
        luck=deal_luck(state, max_nodes=2_000),
    )
