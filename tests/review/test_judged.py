"""Only a settled decision outside a match point is judged: a depth-limited
guess or a hand that can decide the match gives no label, no best option and no
share of the accuracy (the issue's All Fives reports, as real positions)."""

from __future__ import annotations

from games.engine import Action, options_for
from games.engine.options import rules_for
from games.review import labels
from games.review.export import seat_summaries
from games.review.faceup import face_up_line
from games.review.hand import HandReview
from games.review.single import (
    MATCH,
    POINTS,
    DecisionReview,
    OptionValue,
    match_chance,
)
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


def test_a_match_point_blunder_is_judged_by_the_chance_of_winning_the_match() -> None:
    """4–5 for nothing where 10 points won the match: valued on every deal by
    the match, not by the hand's points. Scoring ten wins on every deal; the
    chosen play leaves the match to the rest of the hand."""
    rev = match_point_blunder()
    assert rev.exact and rev.match_point and rev.scale == MATCH
    assert rev.judged
    assert rev.options[rev.best].action == SCORES_TEN
    assert rev.options[rev.best].value == 1.0
    assert rev.options[rev.chosen].action == SCORES_NOTHING
    assert 0.0 <= rev.options[rev.chosen].value < 1.0
    assert rev.loss == rev.options[rev.best].value - rev.options[rev.chosen].value
    assert rev.label == labels.label_for("all_fives", rev.loss, rev.error, match=True)
    assert rev.label in (labels.MISTAKE, labels.BLUNDER)
    # The points it gave up are kept beside the chances.
    assert rev.options[rev.best].points[0] > rev.options[rev.chosen].points[0]


def test_a_match_point_counts_in_the_accuracy() -> None:
    rev = match_point_blunder()
    review = one_step_review(match_point_position(), SCORES_NOTHING, rev)
    mine, other = seat_summaries(review, options_for("all_fives", seats=2))
    assert mine["decisions"] == 1 and mine["judged"] == 1
    assert mine["accuracy"] == 0
    assert mine["mistakes"] == [
        {"step": 0, "label": rev.label, "loss": rev.loss, "scale": MATCH}
    ]
    assert other["decisions"] == 0 and other["accuracy"] is None


def test_the_chance_of_winning_the_match() -> None:
    """Over at the hand's end: won, lost or shared; else a race to the target
    by the points each side still needs (Spider: the penalties it may take)."""
    fives = rules_for(options_for("all_fives", seats=2, target=100))
    assert match_chance(fives, (105, 60), 0) == 1.0
    assert match_chance(fives, (105, 60), 1) == 0.0
    assert match_chance(fives, (100, 100), 1) == 0.5
    assert match_chance(fives, (90, 60), 0) == (1 / 10) / (1 / 10 + 1 / 40)
    assert match_chance(fives, (50, 50), 1) == 0.5
    three = rules_for(options_for("all_fives", seats=3, target=100))
    shares = [match_chance(three, (80, 60, 60), s) for s in range(3)]
    assert abs(sum(shares) - 1.0) < 1e-9 and shares[0] > shares[1] == shares[2]
    spider = rules_for(options_for("spider", seats=2))
    top = spider.options.target
    assert match_chance(spider, (top, 10), 0) == 0.0
    assert match_chance(spider, (10, top - 10), 0) > 0.5, "more room before the target"


def test_a_depth_limited_opening_is_not_settled() -> None:
    """All Fives to 50: 1–1 for nothing where 5–5 scored 10. The standard
    budget cannot solve a deal to the hand's end from the opening."""
    lazy = opening_decision(OPEN_1_1)
    assert not lazy.exact and lazy.depth is not None
    # The guess rates 1–1 first: which is why a guess is never a verdict.
    assert lazy.options[lazy.best].action == OPEN_1_1
    assert lazy.label is None and not lazy.judged
    five = opening_decision(OPEN_5_5)
    assert not five.judged and five.label is None
    # A large loss by the guess gets no label either.
    wild = opening_decision(OPEN_0_3)
    match = wild.scale == MATCH
    assert labels.label_for("all_fives", wild.loss, wild.error, match=match)
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
    seat: int,
    loss: float,
    label: str | None,
    *,
    exact: bool,
    point: bool,
    scale: str = POINTS,
) -> DecisionReview:
    opts = (
        OptionValue(Action.play((1, 1), "left"), 0.0, (0.0, 0.0)),
        OptionValue(Action.play((2, 2), "left"), loss, (0.0, 0.0)),
    )
    return DecisionReview(
        seat,
        seat % 2,
        opts,
        0,
        1,
        loss,
        0.0,
        label,
        4,
        4,
        4.0,
        exact,
        None,
        point,
        scale,
    )


def test_accuracy_counts_judged_decisions_only() -> None:
    """Stored labels on decisions that are not judged (a depth-limited one, a
    match point valued in points as the older format stored it) count for
    nothing."""
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


def test_mistakes_on_both_scales_rank_by_their_blunder_threshold() -> None:
    """A drop of 0.15 in the chance of winning the match is a whole blunder; 30
    points in All Fives are three quarters of one: the match point ranks first."""
    base = one_step_review(
        match_point_position(), SCORES_NOTHING, match_point_blunder()
    )
    decisions = (
        (2, _decision(0, 30.0, labels.MISTAKE, exact=True, point=False)),
        (4, _decision(0, 0.15, labels.BLUNDER, exact=True, point=True, scale=MATCH)),
    )
    review = HandReview(decisions, base.face_up, base.luck)
    mine, _ = seat_summaries(review, options_for("all_fives", seats=2))
    assert mine["judged"] == 2 and mine["accuracy"] == 0
    assert [(m["step"], m["scale"]) for m in mine["mistakes"]] == [
        (4, MATCH),
        (2, POINTS),
    ]
