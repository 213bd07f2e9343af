"""The golden set of planted blunders (``golden``): at the standard review
budget each is solved exactly, judged, labelled at least as its case expects,
and valued below the better move a strong player makes."""

from __future__ import annotations

import pytest

from games import engine
from games.engine import current_seat
from games.review import labels
from games.review.hand import budget_for
from games.review.single import review_decision
from tests.review.golden import CASES, NAMED, PRINCIPLES, Planted, position

VARIANTS = set(engine.VARIANTS)
SEED = 1


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_review_labels_the_planted_blunder(case: Planted) -> None:
    state = position(case)
    assert current_seat(state) == case.seat
    budget = budget_for(state.options)
    rev = review_decision(
        state,
        case.seat,
        case.blunder,
        seed=SEED,
        samples=budget.samples,
        max_nodes=budget.max_nodes,
    )
    assert rev is not None, "a decision with a choice"
    assert rev.exact, "every sampled deal solved to the end of the hand"
    assert not rev.match_point, "the hand cannot decide the match"
    assert rev.judged
    assert rev.options[rev.chosen].action == case.blunder
    assert rev.label in labels.LABELS
    assert labels.LABELS.index(rev.label) >= labels.LABELS.index(case.expect)
    value = {o.action: o.value for o in rev.options}
    assert value[case.better] > value[case.blunder]
    assert rev.loss >= value[case.better] - value[case.blunder]


def test_the_set_covers_every_variant_and_seat_count() -> None:
    assert len(CASES) >= 40
    assert {c.variant for c in CASES} == VARIANTS
    assert {c.seats for c in CASES} >= {2, 3, 4}
    assert any(c.partnership for c in CASES)
    for variant in VARIANTS:
        assert {c.seats for c in CASES if c.variant == variant}
    assert len({c.name for c in CASES}) == len(CASES)


def test_every_principle_the_issue_names_is_planted_twice() -> None:
    assert {c.principle for c in CASES} <= set(PRINCIPLES)
    for principle in NAMED:
        assert sum(c.principle == principle for c in CASES) >= 2, principle
