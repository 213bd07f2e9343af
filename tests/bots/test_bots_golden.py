"""Golden positions where the right move is clear, for ``medium`` and ``hard``."""

from __future__ import annotations

import random

import pytest

from games.bots import HardBot, MediumBot
from games.bots.interface import Bot
from games.engine import Action, State, apply, legal_actions, view
from tests.support.positions import play, rig

SMART: list[Bot] = [MediumBot(), HardBot(budget_ms=20.0)]
D6 = [(a, b) for b in range(7) for a in range(b + 1)]


def _rest(*hands: list[tuple[int, int]]) -> list[tuple[int, int]]:
    used = {t for h in hands for t in h}
    return [t for t in D6 if t not in used]


def _choice(bot: Bot, s: State, seat: int, seed: int = 0) -> Action | None:
    legal = legal_actions(s, seat)
    assert len(legal) > 1, "a golden position must offer a real choice"
    return bot.decide(view(s, seat), legal, random.Random(seed))


def all_fives_fifteen() -> State:
    """Ends 3 | 6 after the opening 3-6: the 6-6 makes 3 + 12 = 15; the 1-6,
    5-6 and 2-3 make 0."""
    h0 = [(3, 6), (0, 0), (1, 1), (0, 1), (0, 2)]
    h1 = [(6, 6), (5, 6), (1, 6), (2, 3), (4, 4)]
    s = rig("all_fives", [h0, h1], stock=_rest(h0, h1))
    return play(s, 0, (3, 6), "root")


@pytest.mark.parametrize("bot", SMART, ids=lambda b: b.level)
def test_the_play_that_scores_fifteen(bot: Bot) -> None:
    s = all_fives_fifteen()
    assert {d.get("points") for d in view(s, 1)["legal"]} == {15, 0}
    for seed in range(3):
        assert _choice(bot, s, 1, seed) == Action.play((6, 6), "right")


def block_after_two_passes() -> State:
    """Block: seat 1 passed on a 6 and then on 6 | 3, so it holds neither, and
    has one tile left. Seat 0 (3-3 and 2-6 left) keeps both numbers showing with
    the 3-3 (seat 1 must pass again, then the 2-6 goes out); the 2-6 first
    would open a 2, and seat 1 could go out instead."""
    h0 = [(6, 6), (3, 6), (3, 3), (2, 6)]
    h1 = [(2, 2)]
    s = rig("block", [h0, h1], stock=_rest(h0, h1), forced=(6, 6))
    s = play(s, 0, (6, 6), "root")
    s = apply(s, 1, Action.pass_())
    s = play(s, 0, (3, 6), "right")
    s = apply(s, 1, Action.pass_())
    return s


@pytest.mark.parametrize("bot", SMART, ids=lambda b: b.level)
def test_keeps_the_opponent_blocked(bot: Bot) -> None:
    s = block_after_two_passes()
    assert view(s, 0)["history"][-1]["type"] == "passed"
    for seed in range(3):
        a = _choice(bot, s, 0, seed)
        assert a is not None and a.tile == (3, 3), a


def spider_two_doubles_out() -> State:
    """Spider: seat 0 holds 4-4 and 5-5 with a 4 and a 5 open: laying both
    in one move goes out."""
    h0 = [(3, 3), (3, 5), (4, 4), (5, 5)]
    h1 = [(3, 4), (3, 6), (0, 6), (1, 6), (2, 6)]
    s = rig("spider", [h0, h1], stock=_rest(h0, h1), forced=(3, 3))
    s = play(s, 0, (3, 3), "root")
    s = play(s, 1, (3, 4), "n")
    s = play(s, 0, (3, 5), "e")
    s = play(s, 1, (3, 6), "s")
    return s


@pytest.mark.parametrize("bot", SMART, ids=lambda b: b.level)
def test_goes_out_when_it_can(bot: Bot) -> None:
    s = spider_two_doubles_out()
    out = Action.play_doubles([((4, 4), "n"), ((5, 5), "e")])
    assert out in legal_actions(s, 0)
    assert _choice(bot, s, 0) == out
    after = apply(s, 0, out)
    assert after.phase in ("hand_over", "match_over")


@pytest.mark.parametrize("bot", SMART, ids=lambda b: b.level)
def test_claims_and_calls_muggins(bot: Bot) -> None:
    s = rig("all_fives", [[(4, 6), (0, 0), (1, 1)], [(1, 6), (2, 2)]])
    s = play(s, 0, (4, 6), "root")
    assert s.phase == "claim"
    claim = Action.claim(10)
    assert bot.decide(view(s, 0), legal_actions(s, 0), random.Random(0)) == claim
    s = apply(s, 0, Action.continue_())
    legal = legal_actions(s, 1)
    assert Action.muggins() in legal
    assert bot.decide(view(s, 1), legal, random.Random(0)) == Action.muggins()
