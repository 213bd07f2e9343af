"""The public interface: levels, determinism, claims, Muggins, fallbacks."""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, HardBot, bot_for, choose
from games.bots.knowledge import knowledge_of
from games.engine import (
    Action,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.tiles import tile_id
from tests.support.positions import advance, play, rig


def _claim_position():  # type: ignore[no-untyped-def]
    s = rig("all_fives", [[(4, 6), (0, 0), (1, 1)], [(1, 6), (2, 2)]])
    return play(s, 0, (4, 6), "root")


def test_levels_and_bots() -> None:
    assert LEVELS == ("easy", "medium", "hard")
    for lv in LEVELS:
        assert bot_for(lv).level == lv
    assert bot_for("hard", budget_ms=40).budget_ms == 40  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown bot level"):
        bot_for("expert")


@pytest.mark.parametrize("level", LEVELS)
def test_choose_is_deterministic_given_the_seed(level: str) -> None:
    o = options_for("draw", seats=2)
    for seed in range(4):
        s = advance(new_match(o, seed), 4, seed)
        seat = current_seat(s)
        assert seat is not None
        v, legal = view(s, seat), legal_actions(s, seat)
        a = choose(level, v, legal, random.Random(f"{seed}:1"), budget_ms=10)
        b = choose(level, v, legal, random.Random(f"{seed}:1"), budget_ms=10)
        assert a == b and a in legal


def test_hard_work_does_not_depend_on_the_clock() -> None:
    """Repeated searches of one position agree: the work is counted in
    engine steps, so timing noise (a loaded machine) does not change the move."""
    o = options_for("block", seats=2)
    s = advance(new_match(o, 3), 3, 3)
    seat = current_seat(s)
    assert seat is not None
    v, legal = view(s, seat), legal_actions(s, seat)
    runs = {HardBot(budget_ms=15).decide(v, legal, random.Random(9)) for _ in range(3)}
    assert len(runs) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_next_hand_when_the_hand_is_over(level: str) -> None:
    s = rig("block", [[(6, 6)], [(0, 1)]], forced=(6, 6))
    s = play(s, 0, (6, 6), "root")
    assert s.phase == "hand_over"
    for seat in (0, 1):
        a = choose(level, view(s, seat), legal_actions(s, seat), random.Random(0))
        assert a == Action.next_hand()


def test_easy_forgets_some_claims_but_not_all() -> None:
    s = _claim_position()
    legal = legal_actions(s, 0)
    picks = [choose("easy", view(s, 0), legal, random.Random(i)) for i in range(200)]
    forgot = picks.count(Action.continue_())
    assert picks.count(Action.claim(10)) + forgot == 200
    assert 30 <= forgot <= 90  # about 30%


def test_easy_never_calls_muggins() -> None:
    s = apply(_claim_position(), 0, Action.continue_())
    assert legal_actions(s, 1)[-1] == Action.muggins()
    for i in range(50):
        a = choose("easy", view(s, 1), legal_actions(s, 1), random.Random(i))
        assert a is not None and a.type == "play"
    # Out of turn the only legal action is Muggins: easy lets it pass.
    s3 = rig("all_fives", [[(4, 6), (0, 0)], [(1, 4), (2, 3)], [(2, 4), (3, 3)]])
    s3 = apply(play(s3, 0, (4, 6), "root"), 0, Action.continue_())
    assert legal_actions(s3, 2) == [Action.muggins()]
    assert choose("easy", view(s3, 2), [Action.muggins()], random.Random(0)) is None
    for lv in ("medium", "hard"):
        got = choose(lv, view(s3, 2), [Action.muggins()], random.Random(0))
        assert got == Action.muggins()


@pytest.mark.parametrize("level", LEVELS)
def test_a_broken_view_falls_back_to_the_first_legal_action(level: str) -> None:
    o = options_for("block", seats=2)
    s = advance(new_match(o, 1), 2, 1)
    seat = current_seat(s)
    assert seat is not None
    legal = legal_actions(s, seat)
    if len(legal) == 1:
        legal = [*legal, *legal]
    v = {"seat": seat, "phase": "play"}  # no board, no history
    a = choose(level, v, legal, random.Random(0))
    assert a in legal
    assert choose(level, v, [], random.Random(0)) is None


def test_knowledge_keeps_passes_through_draws_until_playable() -> None:
    """Draw: seat 1 cannot follow 6 | 6, draws two tiles and plays the second:
    it still holds no 6 (the engine's ``public_info`` forgets this)."""
    h0 = [(6, 6), (0, 0), (1, 1)]
    h1 = [(0, 1), (1, 2)]
    s = rig("draw", [h0, h1], stock=[(2, 3), (3, 6), (4, 4)], forced=(6, 6))
    s = play(s, 0, (6, 6), "root")
    s = apply(s, 1, Action.draw())
    s = apply(s, 1, Action.draw())
    s = play(s, 1, (3, 6), "right")
    k = knowledge_of(view(s, 0))
    sixes = {tile_id(a, 6) for a in range(6)}
    lacks = {t for t in range(28) if k.lacks(1) >> t & 1}
    assert lacks == sixes & {t for t in range(28) if k.unseen >> t & 1}
    assert lacks  # 0-6 .. 5-6 are unseen, and seat 1 holds none of them


def test_easy_picks_a_random_tile_then_a_random_end() -> None:
    # Ends 2 and 1: the 1-2 fits both, the 1-4 and the 2-5 one each. Each tile
    # is picked a third of the time (a random legal action would play the 1-2
    # half the time), and the 1-2 goes on either end.
    s = rig("block", [[(6, 6), (1, 6), (0, 0)], [(2, 6), (1, 2), (1, 4), (2, 5)]])
    s = play(play(s, 0, (6, 6), "root"), 1, (2, 6), "left")
    s = play(s, 0, (1, 6), "right")
    legal = legal_actions(s, 1)
    assert len(legal) == 4
    n = 3000
    picks = [choose("easy", view(s, 1), legal, random.Random(i)) for i in range(n)]
    by_tile = {
        t: sum(1 for a in picks if a and a.tile == t) for t in {a.tile for a in legal}
    }
    assert set(by_tile) == {(1, 2), (1, 4), (2, 5)}
    for count in by_tile.values():
        assert 0.29 < count / n < 0.38
    ends_of_12 = {a.end for a in picks if a and a.tile == (1, 2)}
    assert ends_of_12 == {"left", "right"}
