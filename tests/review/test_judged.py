"""Only a settled decision outside a match point is judged: a depth-limited
guess or a hand that can decide the match gives no label, no best option and no
share of the accuracy (the issue's All Fives reports, as real positions)."""

from __future__ import annotations

from games.engine import Action, options_for
from games.review import labels
from games.review.export import seat_summaries
from games.review.faceup import face_up_line
from games.review.hand import HandReview
from games.review.single import DecisionReview, OptionValue
from tests.review.cases import (
    OPEN_0_3,
    OPEN_1_1,
    OPEN_5_5,
    SCORES_NOTHING,
    SCORES_TEN,
    match_point_blunder,
    match_point_position,
    one_step_review,
    opening_decision,
    opening_position,
)


def test_a_match_point_blunder_is_valued_not_judged() -> None:
    rev = match_point_blunder()
    assert rev.exact, "settled on every deal: only the match keeps it unjudged"
    assert rev.match_point
    assert rev.options[rev.best].action == SCORES_TEN
    assert rev.options[rev.chosen].action == SCORES_NOTHING
    # A clear loss that would be labelled anywhere else in the match.
    assert labels.label_for("all_fives", rev.loss, rev.error) is not None
    assert rev.label is None and not rev.judged


def test_a_hand_of_unjudged_decisions_claims_no_accuracy() -> None:
    rev = match_point_blunder()
    review = one_step_review(match_point_position(), SCORES_NOTHING, rev)
    mine, other = seat_summaries(review, options_for("all_fives", seats=2))
    assert mine["decisions"] == 1 and mine["judged"] == 0
    assert mine["accuracy"] is None
    assert mine["mistakes"] == [] and sum(mine["labels"].values()) == 0
    assert other["decisions"] == 0 and other["accuracy"] is None


def test_a_depth_limited_opening_is_not_settled() -> None:
    """All Fives to 50: 1–1 for nothing where 5–5 scored 10. The standard
    budget cannot solve a deal to the hand's end from the opening."""
    lazy = opening_decision(OPEN_1_1)
    assert not lazy.exact and lazy.depth is not None
    assert not lazy.match_point
    # The guess rates 1–1 first: which is why a guess is never a verdict.
    assert lazy.options[lazy.best].action == OPEN_1_1
    assert lazy.label is None and not lazy.judged
    five = opening_decision(OPEN_5_5)
    assert not five.judged and five.label is None
    # A large loss by the guess gets no label either.
    wild = opening_decision(OPEN_0_3)
    assert labels.label_for("all_fives", wild.loss, wild.error) is not None
    assert wild.label is None and not wild.judged


def test_a_depth_limited_decision_counts_in_no_accuracy() -> None:
    rev = opening_decision(OPEN_0_3)
    review = one_step_review(opening_position(), OPEN_0_3, rev)
    mine, _ = seat_summaries(review, options_for("all_fives", seats=2, target=50))
    assert mine["decisions"] == 1 and mine["judged"] == 0
    assert mine["accuracy"] is None and mine["mistakes"] == []


def test_a_depth_limited_face_up_step_is_never_marked_changed() -> None:
    steps = [(opening_position(), 0, OPEN_0_3)]
    (x,) = face_up_line(steps, max_nodes=2_000)
    assert not x.before.exact and x.loss > 0
    assert not x.changed


def _decision(
    seat: int, loss: float, label: str | None, *, exact: bool, point: bool
) -> DecisionReview:
    opts = (
        OptionValue(Action.play((1, 1), "left"), 0.0, (0.0, 0.0)),
        OptionValue(Action.play((2, 2), "left"), loss, (0.0, 0.0)),
    )
    return DecisionReview(
        seat, seat % 2, opts, 0, 1, loss, 0.0, label, 4, 4, 4.0, exact, None, point
    )


def test_accuracy_counts_judged_decisions_only() -> None:
    """Stored labels on decisions that are not judged (an earlier version's
    reviews) count for nothing."""
    base = one_step_review(
        match_point_position(), SCORES_NOTHING, match_point_blunder()
    )
    decisions = (
        (0, _decision(0, 0.0, None, exact=True, point=False)),
        (2, _decision(0, 30.0, labels.MISTAKE, exact=True, point=False)),
        (4, _decision(0, 45.0, labels.BLUNDER, exact=False, point=False)),
        (6, _decision(0, 45.0, labels.BLUNDER, exact=True, point=True)),
        (8, _decision(0, 0.0, None, exact=False, point=False)),
    )
    review = HandReview(decisions, base.face_up, base.luck)
    mine, _ = seat_summaries(review, options_for("all_fives", seats=2))
    assert mine["decisions"] == 5 and mine["judged"] == 2
    assert mine["accuracy"] == 50
    assert [m["step"] for m in mine["mistakes"]] == [2]
    assert mine["labels"] == {"inaccuracy": 0, "mistake": 1, "blunder": 0}
