"""The information guarantee: ``hard`` decides from the view alone.

Swapping the opponents' hidden tiles (and the stock) for any other deal
consistent with the viewing seat's knowledge changes neither the view nor the
choice.
"""

from __future__ import annotations

import random

import pytest

from games.bots import HardBot
from games.bots.hard.deals import sample_deal
from games.bots.knowledge import knowledge_of
from games.engine import (
    Options,
    State,
    current_seat,
    determinize,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.tiles import tile_id
from tests.support.positions import advance

POSITIONS = [
    (options_for("block", seats=2), 5),
    (options_for("draw", seats=2), 7),
    (options_for("all_fives", seats=2), 6),
    (options_for("fives_and_threes", seats=3), 4),
    (options_for("block", seats=4, partnership=True), 6),
    (options_for("spider", seats=2), 6),
    (options_for("fives", seats=2), 5),
    (options_for("grand_cross", seats=3, set_max=9), 5),
]


def _position(o: Options, moves: int, seed: int) -> tuple[State, int]:
    s = advance(new_match(o, seed), moves, seed)
    seat = current_seat(s)
    assert seat is not None, "the position must be mid-hand"
    return s, seat


def _others(s: State, seat: int, rng: random.Random) -> list[State]:
    v = view(s, seat)
    k = knowledge_of(v)
    out = []
    for _ in range(4):
        hands, stock = sample_deal(k, rng)
        out.append(determinize(v, hands, stock))
    return out


@pytest.mark.parametrize(("o", "moves"), POSITIONS, ids=lambda x: str(x)[:40])
def test_hard_chooses_the_same_whatever_the_hidden_deal(o: Options, moves: int) -> None:
    bot = HardBot(budget_ms=2.0)
    for seed in range(3):
        s, seat = _position(o, moves, seed)
        mine = view(s, seat)
        chosen = bot.decide(mine, legal_actions(s, seat), random.Random(seed))
        hidden = [h for i, h in enumerate(s.hands) if i != seat] + [s.stock]
        different = 0
        for alt in _others(s, seat, random.Random(100 + seed)):
            alt_hidden = [h for i, h in enumerate(alt.hands) if i != seat] + [alt.stock]
            different += alt_hidden != hidden
            assert view(alt, seat) == mine
            assert legal_actions(alt, seat) == legal_actions(s, seat)
            again = bot.decide(
                view(alt, seat), legal_actions(alt, seat), random.Random(seed)
            )
            assert again == chosen
        assert different, "the test must really swap hidden tiles"


def test_sampled_deals_respect_passes() -> None:
    """A seat that passed on some numbers is never dealt them in a sample."""
    o = options_for("block", seats=2)
    found = 0
    for seed in range(60):
        s = advance(new_match(o, seed), 12, seed)
        seat = current_seat(s)
        if seat is None:
            continue
        v = view(s, seat)
        k = knowledge_of(v)
        other = 1 - seat
        lacks = k.lacks(other)
        if not lacks:
            continue
        found += 1
        rng = random.Random(seed)
        for _ in range(10):
            hands, _ = sample_deal(k, rng)
            held = 0
            for a, b in hands[other]:
                held |= 1 << tile_id(a, b)
            assert not held & lacks
            assert len(hands[other]) == v["hand_counts"][other]
    assert found >= 5
