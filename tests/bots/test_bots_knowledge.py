"""What the opening and the past plays tell ``hard`` about hidden tiles.

The knowledge must never rule out the truth: in real games, at every decision,
the true hidden hands obey every limit and every "holds at least one" that the
viewing seat derived, and the hand each opponent really held at a past play is
one of the hands ``inference.past_hands`` averages over.
"""

from __future__ import annotations

import random

import pytest

from games.bots import bot_for
from games.bots.hard import inference
from games.bots.hard.deals import sample_deal
from games.bots.knowledge import knowledge_of, undealt
from games.engine import (
    Action,
    Options,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import rules_for
from games.engine.tiles import DOUBLES_MASK, PIPS, TILE_HI, bits, tile_id
from tests.support.positions import play, rig

SET_UPS = [
    options_for("block", seats=2),
    options_for("draw", seats=2),
    options_for("draw", seats=3),
    options_for("all_fives", seats=2),
    options_for("fives_and_threes", seats=3),
    options_for("catalan", seats=2),
    options_for("spider", seats=2),
    options_for("fives", seats=2),
    options_for("cross", seats=2),
]


def _doubles(*values: int) -> int:
    return sum(1 << tile_id(v, v) for v in values)


def _held(pairs: list[tuple[int, int]]) -> int:
    return sum(1 << tile_id(a, b) for a, b in pairs)


def _games(o: Options, seeds: range, level: str = "easy"):  # type: ignore[no-untyped-def]
    """Every (state, seat to decide) of hand 1 of each seed, played by ``level``."""
    bot = bot_for(level)
    for seed in seeds:
        s = new_match(o, seed)
        rng = random.Random(seed)
        while s.phase in ("play", "claim", "close"):
            turn = current_seat(s)
            acted = False
            for seat in [x for x in range(o.seats) if x != turn] + [turn]:
                if seat is None:
                    continue
                legal = legal_actions(s, seat)
                if not legal:
                    continue
                yield s, seat
                a = bot.choose(view(s, seat), legal, rng)
                if a is None:
                    continue
                s = apply(s, seat, a)
                acted = True
                break
            assert acted


@pytest.mark.parametrize("o", SET_UPS, ids=lambda o: f"{o.variant}-{o.seats}")
def test_the_knowledge_never_rules_out_the_true_deal(o: Options) -> None:
    exercised = musts = 0
    for s, seat in _games(o, range(40)):
        k = knowledge_of(view(s, seat))
        for other in range(o.seats):
            if other == seat:
                continue
            hand = s.hands[other]
            for mask, allow in k.limits[other]:
                assert (hand & mask).bit_count() <= allow, (s.log, other, mask)
            if k.must(other):
                musts += 1
                assert hand & k.must(other), (s.log, other)
        exercised += any(lim[1] == 0 for ls in k.limits for lim in ls)
    assert exercised  # some seat was known to lack tiles
    if rules_for(o).opening == "highest_double_any":
        assert musts  # and the opener's "at least one" too


def test_a_forced_opening_tells_which_doubles_nobody_holds() -> None:
    """Block: the opener had to lay the highest double dealt, so every higher
    double lies in the boneyard; no sampled deal gives one to the opponent."""
    o = options_for("block", seats=2)
    seed = next(
        x for x in range(200) if not sum(new_match(o, x).hands) & _doubles(5, 6)
    )
    s = new_match(o, seed)
    opener = current_seat(s)
    assert opener is not None
    s = apply(s, opener, legal_actions(s, opener)[0])
    seat = 1 - opener
    k = knowledge_of(view(s, seat))
    assert k.lacks(opener) & _doubles(5, 6) == _doubles(5, 6)
    rng = random.Random(1)
    for _ in range(200):
        hands, _ = sample_deal(k, rng)
        assert not _held(hands[opener]) & _doubles(5, 6)


def test_draws_lift_the_opening_limit() -> None:
    """Draw: right after a 4-4 opening, seat 1 surely holds neither 5-5 nor
    6-6; once it has drawn (it may have drawn them), it may."""
    s = rig(
        "draw",
        [[(4, 4), (0, 1), (0, 0)], [(1, 2), (2, 3)]],
        stock=[(5, 5), (1, 4), (0, 2)],
        forced=(4, 4),
    )
    s.log = (("start", 1, 0, 0, 0),)  # a dealt hand: the opening tells
    s = play(s, 0, (4, 4), "root")
    assert knowledge_of(view(s, 0)).lacks(1) == _doubles(5, 6)
    s = apply(s, 1, Action.draw())
    s = apply(s, 1, Action.draw())
    s = play(s, 1, (1, 4), "left")
    assert not knowledge_of(view(s, 0)).lacks(1) & _doubles(5, 6)


def test_undealt_for_each_opening_rule() -> None:
    block = rules_for(options_for("block", seats=2))
    assert undealt(block, 1, tile_id(4, 4)) == _doubles(5, 6)
    assert undealt(block, 1, tile_id(6, 6)) == 0
    catalan = rules_for(options_for("catalan", seats=2))
    heavier = sum(1 << t for t in bits(catalan.full) if PIPS[t] > 10)
    assert undealt(catalan, 1, tile_id(4, 6)) == (catalan.full & DOUBLES_MASK) | heavier
    spider = rules_for(options_for("spider", seats=2))
    assert undealt(spider, 1, tile_id(3, 3)) == _doubles(1, 2)
    assert undealt(spider, 1, tile_id(0, 0)) == _doubles(1, 2, 3, 4, 5, 6)
    fives = rules_for(options_for("fives", seats=2))
    assert undealt(fives, 1, tile_id(3, 3)) == _doubles(4, 5, 6)
    assert undealt(fives, 2, tile_id(3, 3)) == 0  # later hands: the winner opens
    all_fives = rules_for(options_for("all_fives", seats=2))
    assert undealt(all_fives, 1, tile_id(3, 3)) == 0  # any tile: says nothing


def test_all_fives_opening_tells_about_the_highest_double() -> None:
    """The holder of the highest double opens with any tile: if the viewer
    opened, the opponent was dealt no higher double; if the opponent opened, it
    holds one of the doubles above the viewer's best (until it plays one)."""
    o = options_for("all_fives", seats=2)
    seen_open = seen_must = 0
    for seed in range(40):
        s = new_match(o, seed)
        opener = current_seat(s)
        assert opener is not None
        plain = [
            x
            for x in legal_actions(s, opener)
            if x.type == "play" and x.tile is not None and x.tile[0] != x.tile[1]
        ]
        if not plain:
            continue
        s = apply(s, opener, plain[0])
        mine = max(TILE_HI[t] for t in bits(s.hands[opener] & DOUBLES_MASK))
        k = knowledge_of(view(s, opener))
        above = _doubles(*range(mine + 1, 7)) & k.unseen
        assert k.lacks(1 - opener) & above == above
        seen_open += bool(above)
        viewer = 1 - opener
        best = max(
            (TILE_HI[t] for t in bits(s.hands[viewer] & DOUBLES_MASK)), default=-1
        )
        k = knowledge_of(view(s, viewer))
        want = _doubles(*range(best + 1, 7)) & k.unseen
        assert want and k.must(opener) == want
        rng = random.Random(seed)
        for _ in range(50):
            hands, _ = sample_deal(k, rng)
            assert _held(hands[opener]) & want
        seen_must += 1
    assert seen_open and seen_must


def test_playing_the_double_ends_the_must() -> None:
    """Once the opener has played one of the doubles it had to hold, the
    viewer can no longer tell that it still holds one."""
    o = options_for("all_fives", seats=2)
    s = new_match(o, 0)
    opener = current_seat(s)
    assert opener is not None
    top = max(TILE_HI[t] for t in bits(s.hands[opener] & DOUBLES_MASK))
    double = next(a for a in legal_actions(s, opener) if a.tile == (top, top))
    k = knowledge_of(view(apply(s, opener, double), 1 - opener))
    assert k.must(opener) == 0
    other = next(a for a in legal_actions(s, opener) if a.tile != (top, top))
    k = knowledge_of(view(apply(s, opener, other), 1 - opener))
    assert k.must(opener)


@pytest.mark.parametrize("variant", ["all_fives", "draw"])
def test_the_true_past_hand_is_among_the_past_hands(variant: str) -> None:
    """Each opponent play followed by draws: the hand the seat really held then
    is one of ``past_hands`` (enumerated in full here), and every past hand
    holds the played tile and has the right size."""
    o = options_for(variant, seats=2)
    saved = inference.MAX_PASTS
    inference.MAX_PASTS = 10**9
    checked = 0
    try:
        held_at: dict[tuple[int, int], int] = {}
        for s, seat in _games(o, range(30), level="medium"):
            if s.phase == "play" and seat == current_seat(s):
                for t in bits(s.hands[seat]):
                    held_at[(seat, t)] = s.hands[seat]  # its hand at t's play
            v = view(s, seat)
            for ev in inference.play_events(v):
                if not ev.draws:
                    continue
                pasts = inference.past_hands(ev, s.hands[ev.seat])
                truth = held_at[(ev.seat, ev.tile)]
                assert truth in pasts
                size = truth.bit_count()
                assert all(h >> ev.tile & 1 and h.bit_count() == size for h in pasts)
                checked += 1
    finally:
        inference.MAX_PASTS = saved
    assert checked > 50


def test_past_hands_leave_out_tiles_that_fitted_at_a_later_draw() -> None:
    """A tile held now that fitted the board when the seat drew later was not in
    its hand at the play; a deal with more such tiles than draws explains
    nothing."""
    ev = inference.Event(
        seat=1,
        tile=tile_id(2, 3),
        end=0,
        ends=(3,),
        table=0,
        lacks=0,
        sign=1.0,
        since=1 << tile_id(2, 3),
        dbls=(False,),
        scoring=None,
        draws=1,
        later=1 << tile_id(4, 4) | 1 << tile_id(4, 5),
    )
    now = 1 << tile_id(4, 4) | 1 << tile_id(0, 1) | 1 << tile_id(1, 1)
    pasts = inference.past_hands(ev, now)
    assert pasts == [1 << tile_id(2, 3) | 1 << tile_id(0, 1) | 1 << tile_id(1, 1)]
    both = now | 1 << tile_id(4, 5)
    assert inference.past_hands(ev, both) == []
    assert inference.past_term(ev, both, (1 << 28) - 1)[0] == inference.IMPOSSIBLE
