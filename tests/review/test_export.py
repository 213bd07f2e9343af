"""A review stored as JSON and read back; the per-seat summary; progress;
budgets."""

from __future__ import annotations

import json

from games.engine import options_for
from games.review.export import review_from_json, review_to_json, seat_summaries
from games.review.hand import DEEP, STANDARD, HandReview, budget_for, hand_review
from games.review.labels import BLUNDER, INACCURACY, MISTAKE
from games.review.single import DecisionReview, OptionValue, review_hand
from tests.review.test_single import _medium_hand

BUDGET = {"samples": 4, "max_nodes": 800, "face_up_nodes": 4_000, "luck_nodes": 4_000}


def _review(variant: str = "all_fives", seed: int = 5) -> tuple[HandReview, object]:
    o = options_for(variant, seats=2)
    steps = _medium_hand(o, seed)
    return hand_review(steps, seed=3, **BUDGET), o


def test_round_trip_through_json_text() -> None:
    rev, o = _review()
    data = review_to_json(rev, o, seqs=list(range(100, 200)))  # type: ignore[arg-type]
    again = json.loads(json.dumps(data))
    assert review_from_json(again) == rev
    assert data["decisions"], "a medium hand of All Fives has choices"
    first = data["decisions"][0]
    assert first["seq"] == 100 + first["step"]
    assert data["face_up"][0]["seq"] == 100


def test_progress_climbs_to_100() -> None:
    o = options_for("block", seats=2)
    steps = _medium_hand(o, 3)
    seen: list[int] = []
    hand_review(steps, seed=1, progress=seen.append, **BUDGET)
    n = len(review_hand(steps, seed=1, samples=4, max_nodes=800))
    assert len(seen) == n + 2
    assert seen == sorted(seen) and seen[-1] == 100 and seen[0] < 100


def _decision(seat: int, loss: float, label: str | None) -> DecisionReview:
    from games.engine import Action

    opts = (
        OptionValue(Action.play((1, 1), "left"), 0.0, (0.0, 0.0)),
        OptionValue(Action.play((2, 2), "left"), loss, (0.0, 0.0)),
    )
    return DecisionReview(
        seat, seat % 2, opts, 0, 1, loss, 0.0, label, 4, 4, 4.0, True, None, False
    )


def test_summary_accuracy_and_biggest_mistakes() -> None:
    rev, o = _review("block", 3)
    decisions = (
        (0, _decision(0, 0.0, None)),
        (2, _decision(0, 30.0, BLUNDER)),
        (4, _decision(0, 4.0, INACCURACY)),
        (6, _decision(0, 12.0, MISTAKE)),
        (8, _decision(0, 5.0, INACCURACY)),
        (1, _decision(1, 1.0, None)),
    )
    fake = HandReview(decisions, rev.face_up, rev.luck)
    mine, other = seat_summaries(fake, o)  # type: ignore[arg-type]
    assert mine["decisions"] == 5 and mine["accuracy"] == 20
    assert [m["step"] for m in mine["mistakes"]] == [2, 6, 8]
    assert mine["labels"] == {"inaccuracy": 2, "mistake": 1, "blunder": 1}
    assert other["accuracy"] == 100 and other["mistakes"] == []
    assert mine["luck"] == rev.luck.luck[0] and other["luck"] == rev.luck.luck[1]


def test_budgets_shrink_on_large_tables_and_grow_when_deep() -> None:
    assert budget_for(options_for("block", seats=4)) == STANDARD
    assert budget_for(options_for("block", seats=4), deep=True) == DEEP
    big = budget_for(options_for("draw", set_max=9, seats=4))
    assert big.reduced and big.samples < STANDARD.samples
    assert DEEP.samples > STANDARD.samples and DEEP.max_nodes > STANDARD.max_nodes
