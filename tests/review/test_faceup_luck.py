"""The face-up line of a hand and the luck meter."""

from __future__ import annotations

import pytest

from games.engine import VARIANTS, Action, State, apply, options_for
from games.review.faceup import face_up_line
from games.review.hand import hand_review
from games.review.luck import deal_luck, match_luck
from games.review.single import review_hand, reviewable
from games.solver.search import margin, solve
from tests.review.test_single import _golden, _medium_hand


def _made(steps: list[tuple[State, int, Action]], i: int) -> tuple[int, ...]:
    st, seat, a = steps[i]
    nxt = apply(st, seat, a)
    return tuple(x - y for x, y in zip(nxt.scores, st.scores, strict=True))


def test_the_line_adds_up_to_the_hands_result() -> None:
    """Perfect value at the start, minus each side's losses, plus the other's,
    is what the hand gave (two sides, every value exact)."""
    o = options_for("block", seats=2)
    steps = _medium_hand(o, 3)
    line = face_up_line(steps)
    assert len(line) == len(steps)
    assert all(x.before.exact and x.after.exact for x in line)
    first, last = steps[0][0], apply(*steps[-1])
    result = tuple(b - a for a, b in zip(first.scores, last.scores, strict=True))
    value = margin(line[0].before.points, 0)
    for x in line:
        value -= x.loss if x.seat % 2 == 0 else -x.loss
        assert x.changed == (x.loss > 0)
        assert x.loss >= 0
    assert value == margin(result, 0)
    # each step's result is the next position's value plus the step's points
    for k in range(len(line) - 1):
        made = _made(steps, k)
        after = margin(line[k].after.points, 0)
        assert after == margin(line[k + 1].before.points, 0) + margin(made, 0)


def test_the_golden_throw_is_marked() -> None:
    s = _golden()
    throw = Action.play((1, 5), "left")
    steps = [(s, 0, throw)]
    (x,) = face_up_line(steps)
    assert x.changed and x.loss >= 20
    assert x.best == (Action.play((5, 5), "left"),)


def test_luck_is_the_deals_margin_under_equal_play() -> None:
    o = options_for("block", seats=2)
    steps = _medium_hand(o, 3)
    start = steps[0][0]
    luck = deal_luck(start)
    sol = solve(start)
    assert luck.exact and luck.points == sol.points
    assert luck.luck == (margin(sol.points, 0), margin(sol.points, 1))
    assert luck.luck[0] == -luck.luck[1]
    start3 = _medium_hand(options_for("all_fives", seats=3), 1)[0][0]
    three = deal_luck(start3, max_nodes=3_000)
    assert abs(sum(three.luck)) < 1e-9  # the table's average is zero
    total = match_luck([luck, luck])
    assert total == (2 * luck.luck[0], 2 * luck.luck[1])


def test_a_hand_review_gathers_the_three_parts() -> None:
    o = options_for("all_fives", seats=2)
    steps = _medium_hand(o, 5)
    rev = hand_review(
        steps, seed=9, samples=4, max_nodes=1_000, face_up_nodes=5_000, luck_nodes=5_000
    )
    assert rev.decisions == tuple(
        review_hand(steps, seed=9, samples=4, max_nodes=1_000)
    )
    assert len(rev.face_up) == len(steps)
    assert rev.luck.luck[0] == -rev.luck.luck[1]
    for _, d in rev.decisions:
        assert 1 <= d.distinct <= d.samples == 4


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_is_reviewed(variant: str) -> None:
    """A whole hand of each variant, on small budgets: every decision with a
    choice is judged, every step has its face-up value."""
    o = options_for(variant, seats=2)
    steps = _medium_hand(o, 2)
    rev = hand_review(
        steps, seed=1, samples=2, max_nodes=300, face_up_nodes=300, luck_nodes=300
    )
    want = [i for i, (st, seat, a) in enumerate(steps) if reviewable(st, seat, a)]
    assert [i for i, _ in rev.decisions] == want
    assert len(rev.face_up) == len(steps)
    for _, d in rev.decisions:
        assert d.loss >= 0 and 0 <= d.best < len(d.options)
