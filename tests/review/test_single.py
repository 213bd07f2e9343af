"""Single-dummy review: golden hands, forced moves, sides and reproducibility."""

from __future__ import annotations

import itertools
import random

from games.bots import bot_for
from games.bots.knowledge import knowledge_of
from games.engine import (
    Action,
    State,
    apply,
    current_seat,
    determinize,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.tiles import PAIRS
from games.review import labels
from games.review.single import (
    MATCH,
    POINTS,
    review_decision,
    review_hand,
    reviewable,
    sample_states,
)
from games.solver.search import DoubleDummy, margin
from tests.support.positions import rig

Pair = tuple[int, int]

# A block hand for two: seat 0 ends with (1, 5) and (5, 5) against three tiles
# of seat 1, who has passed twice; four tiles are set aside.
GOLDEN_HANDS: list[list[Pair]] = [
    [(2, 2), (1, 4), (1, 5), (2, 4), (4, 4), (5, 5), (4, 5), (0, 5), (0, 4)]
    + [(3, 5), (2, 5), (6, 6)],
    [(4, 6), (0, 0), (1, 1), (5, 6), (1, 2), (1, 6), (0, 2), (2, 3), (1, 3)]
    + [(2, 6), (0, 3), (3, 3)],
]
GOLDEN_ASIDE: list[Pair] = [(0, 6), (3, 4), (3, 6), (0, 1)]
GOLDEN_MOVES: list[tuple[Pair, str] | None] = [
    ((2, 2), "root"),
    ((0, 2), "left"),
    ((0, 4), "left"),
    ((2, 3), "right"),
    ((4, 5), "left"),
    ((1, 3), "right"),
    ((3, 5), "left"),
    ((3, 3), "left"),
    ((1, 4), "right"),
    ((4, 6), "right"),
    ((6, 6), "right"),
    ((5, 6), "right"),
    ((2, 5), "right"),
    ((0, 3), "left"),
    ((2, 4), "right"),
    ((0, 0), "left"),
    ((4, 4), "right"),
    None,  # seat 1 passes
    ((0, 5), "left"),
    None,
]


def _golden() -> State:
    s = rig("block", GOLDEN_HANDS, stock=GOLDEN_ASIDE, forced=(2, 2))
    for i, move in enumerate(GOLDEN_MOVES):
        a = Action.pass_() if move is None else Action.play(*move)
        s = apply(s, i % 2, a)
    assert s.turn == 0 and s.phase == "play"
    return s


def test_throwing_away_a_won_hand_is_a_blunder() -> None:
    s = _golden()
    keep = Action.play((5, 5), "left")
    throw = Action.play((1, 5), "left")
    assert set(legal_actions(s, 0)) == {keep, throw}
    # the hand is won with the double and lost without it, whatever seat 1 holds
    v = view(s, 0)
    k = knowledge_of(v)
    unseen = [t for t in range(28) if k.unseen >> t & 1]
    deals = 0
    for opp in itertools.combinations(unseen, v["hand_counts"][1]):
        if any(k.lacks(1) >> t & 1 for t in opp):
            continue
        rest = [PAIRS[t] for t in unseen if t not in opp]
        d = determinize(v, {1: [PAIRS[t] for t in opp]}, rest)
        vals = dict(DoubleDummy(d).option_values(d, 0))
        assert margin(vals[keep].points, 0) > 0 > margin(vals[throw].points, 0)
        deals += 1
    assert deals > 1  # seat 0 cannot know seat 1's hand: a real single-dummy case

    rev = review_decision(s, 0, throw, seed=4)
    assert rev is not None
    assert rev.options[rev.best].action == keep
    assert rev.options[rev.chosen].action == throw
    assert rev.loss >= labels.THRESHOLDS["block"].blunder
    assert rev.label == labels.BLUNDER
    assert rev.exact
    good = review_decision(s, 0, keep, seed=4)
    assert good is not None and good.loss == 0 and good.label is None


def test_a_forced_move_is_never_labelled() -> None:
    o = options_for("block", seats=2)
    steps = _medium_hand(o, 3)
    forced = [
        (i, st, seat, a)
        for i, (st, seat, a) in enumerate(steps)
        if len(legal_actions(st, seat)) == 1
    ]
    assert forced
    for _, st, seat, a in forced:
        assert not reviewable(st, seat, a)
        assert review_decision(st, seat, a) is None
    # a whole hand: every decision with a choice comes back, and nothing else
    reviewed = review_hand(steps, seed=1, samples=4, max_nodes=2_000)
    assert not {i for i, *_ in forced} & {i for i, _ in reviewed}
    assert len(reviewed) == sum(1 for st, seat, a in steps if reviewable(st, seat, a))


def test_declining_a_claim_is_judged() -> None:
    """Continuing without claiming hands the points to the opponent (Muggins)."""
    mine = [(5, 5), (2, 3), (4, 4), (0, 1)]
    yours = [(1, 1), (2, 2), (6, 6), (0, 0)]
    rest = [p for p in PAIRS[:28] if p not in mine + yours]
    s = rig("all_fives", [mine, yours], stock=rest)
    s = apply(s, 0, Action.play((5, 5), "root"))  # an opening 5-5 counts 10
    assert s.phase == "claim" and s.pending == 10
    rev = review_decision(s, 0, Action.continue_(), seed=0, samples=4)
    assert rev is not None
    assert rev.options[rev.best].action == Action.claim(10)
    assert rev.loss == 20  # +10 for the side against +10 for the opponent
    # A whole won hand of All Fives is worth 20 by the self-play thresholds: giving
    # one away is a mistake (a blunder from 40).
    assert labels.THRESHOLDS["all_fives"].mistake <= 20
    assert rev.label == labels.MISTAKE


def test_the_review_is_reproducible() -> None:
    o = options_for("draw", seats=2)
    steps = _medium_hand(o, 8)[-12:]
    first = review_hand(steps, seed=5, samples=4, max_nodes=1_000)
    again = review_hand(steps, seed=5, samples=4, max_nodes=1_000)
    assert first == again and first
    other = review_hand(steps, seed=6, samples=4, max_nodes=1_000)
    assert [i for i, _ in other] == [i for i, _ in first]


def test_partners_are_judged_as_one_side() -> None:
    o = options_for("block", seats=4, partnership=True)
    steps = _medium_hand(o, 2)
    reviewed = review_hand(steps, seed=2, samples=4, max_nodes=2_000)
    assert reviewed
    for _, rev in reviewed:
        assert rev.side == rev.seat % 2
        for opt in rev.options:
            p = opt.points
            assert abs(opt.value - (p[rev.side] - p[1 - rev.side])) < 1e-9


def test_sampled_deals_fit_the_view() -> None:
    """Every sampled deal shows the seat exactly what it saw."""
    o = options_for("all_fives", seats=3)
    steps = _medium_hand(o, 4)
    for st, seat, a in steps[4:12]:
        if not reviewable(st, seat, a):
            continue
        mine = view(st, seat)
        deals, _ = sample_states(st, seat, 5, random.Random(1))
        for d, count in deals:
            assert count >= 1
            seen = view(d, seat)
            assert seen["hand"] == mine["hand"]
            assert seen["public_state"]["log"] == mine["public_state"]["log"]
            assert seen["hand_counts"] == mine["hand_counts"]


def test_a_match_point_is_valued_by_the_match() -> None:
    """Near the match target the hand-points objective is not the player's:
    the same decision is valued by its side's chance of winning the match,
    whatever the points it gives up."""
    points = review_decision(_golden(), 0, Action.play((1, 5), "left"), seed=4)
    assert points is not None and not points.match_point
    assert points.scale == POINTS and points.loss >= labels.THRESHOLDS["block"].blunder
    s = _golden().copy()
    s.scores = (95, 60)
    rev = review_decision(s, 0, Action.play((1, 5), "left"), seed=4)
    assert rev is not None and rev.match_point and rev.scale == MATCH
    assert all(0.0 <= o.value <= 1.0 for o in rev.options)
    assert rev.options[rev.best].value == 1.0
    assert 0.0 < rev.loss < 1.0
    assert rev.label == labels.label_for("block", rev.loss, rev.error, match=True)
    assert rev.label is not None


def _medium_hand(o: object, seed: int) -> list[tuple[State, int, Action]]:
    """Hand 1 of ``seed`` played by ``medium`` at every seat, as review steps."""
    from games.engine import Options

    assert isinstance(o, Options)
    bot = bot_for("medium")
    s = new_match(o, seed)
    rng = random.Random(seed)
    steps = []
    while s.phase in ("play", "claim", "close"):
        seat = current_seat(s)
        assert seat is not None
        a = bot.choose(view(s, seat), legal_actions(s, seat), rng)
        assert a is not None
        steps.append((s, seat, a))
        s = apply(s, seat, a)
    return steps
