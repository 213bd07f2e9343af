"""Driving matches and positions with bots."""

from __future__ import annotations

import random

from games.bots import bot_for
from games.bots.interface import Bot
from games.engine import (
    Action,
    Options,
    State,
    apply,
    current_seat,
    legal_actions,
    new_match,
    view,
)


def decide(bot: Bot, s: State, seat: int, rng: random.Random) -> Action | None:
    """``bot.decide`` (raising on a bug, unlike ``choose``), checked legal."""
    legal = legal_actions(s, seat)
    a = bot.decide(view(s, seat), legal, rng)
    if a is None:
        assert bot.level == "easy" and all(x.type == "muggins" for x in legal)
    else:
        assert a in legal, (bot.level, a, legal)
    return a


def step(s: State, bots: list[Bot], rng: random.Random) -> State:
    """One action: out-of-turn seats (Muggins) are asked first, then the mover."""
    turn = current_seat(s)
    n = s.options.seats
    order = [x for x in range(n) if x != turn] + ([turn] if turn is not None else [])
    for seat in order:
        if not legal_actions(s, seat):
            continue
        a = decide(bots[seat], s, seat, rng)
        if a is not None:
            return apply(s, seat, a)
    raise AssertionError("nobody acted")


def play_match(
    options: Options, seed: int, levels: list[str], budget_ms: float, max_hands: int
) -> State:
    """Play a match (at most ``max_hands`` hands) with these levels per seat."""
    bots = [bot_for(lv, budget_ms=budget_ms) for lv in levels]
    s = new_match(options, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if s.phase == "match_over" or (
            s.phase == "hand_over" and s.hand_no >= max_hands
        ):
            return s
        s = step(s, bots, rng)
    raise AssertionError("the match did not end")
