"""``hard``'s search on the line variants: the solver plays the engine's rules,
exact search finds what greedy playouts miss, and the sampler is unbiased."""

from __future__ import annotations

import random
from math import comb

import pytest

from games.bots import HardBot, MediumBot
from games.bots.board import rules_of
from games.bots.hard import candidates, inference
from games.bots.hard.deals import root_of, sample_deal
from games.bots.hard.line_playout import SideValue
from games.bots.hard.line_search import root_values
from games.bots.hard.means import gated_means, weighted_means
from games.bots.hard.playouts import hand_value, playout_search
from games.bots.knowledge import Knowledge
from games.engine import (
    Action,
    State,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import Rules, rules_for
from games.engine.state import DBL
from games.engine.tiles import PAIRS, tile_id
from games.solver.line import LineGame
from games.solver.search import Search
from tests.support.positions import advance, rig


def _minimax(s: State, side: int, r: Rules, start: tuple[int, ...]) -> float:
    """Plain minimax through the engine (every seat claims, nobody declines)."""
    if s.phase not in ("play", "claim"):
        return hand_value(s, start, side, r)
    seat = s.turn
    acts = [a for a in legal_actions(s, seat) if a.type not in ("muggins", "continue")]
    vals = [_minimax(apply(s, seat, a), side, r, start) for a in acts]
    return max(vals) if r.side_of[seat] == side else min(vals)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [
        ("block", 2),
        ("block", 3),
        ("draw", 2),
        ("draw", 3),
        ("all_fives", 2),
        ("fives_and_threes", 3),
        ("catalan", 2),
    ],
)
def test_the_solver_agrees_with_the_engine(variant: str, seats: int) -> None:
    """On full deals near the end of a hand, ``hard``'s exact value (the
    solver's alpha-beta on its objective, every other side against it) equals
    a minimax through ``legal_actions``/``apply``: same rules, same scoring."""
    o = options_for(variant, seats=seats)
    r = rules_for(o)
    checked = 0
    for seed in range(40):
        s = advance(new_match(o, seed), 9 if seats == 2 else 8, seed)
        if s.phase == "play" and sum(h.bit_count() for h in s.hands) > 9:
            s = advance(s, 4, seed + 1)
        if s.phase != "play" or s.played == 0 or s.muggins is not None:
            continue
        if sum(h.bit_count() for h in s.hands) > 9:
            continue
        seat = s.turn
        side = r.side_of[seat]
        expect = _minimax(s, side, r, s.scores)
        game = LineGame(r)
        search = Search(game, objective=SideValue(r, side), max_nodes=10**8)
        (_, a, fa), (_, b, fb) = s.ends
        pos = (s.hands, seat, s.stock, a, bool(fa & DBL), b, bool(fb & DBL))
        (got,) = search.scores([(None, (0,) * r.n_sides, pos, None, 0)], 99)
        assert not search.horizon
        assert got == pytest.approx(expect), (variant, seats, seed)
        checked += 1
    assert checked >= 8


def _only_winning_line() -> State:
    """``draw`` dealt 14-14 with no stock, so every tile is known to both seats;
    random play (seed 51) to a position where seat 0 (0-1, 1-1, 1-4, 0-6, 4-6
    against 2-3, 0-4, 2-4, 4-4; ends 0 | 3) has two plays. Only 0-1 on the 0
    wins the hand; the greedy playout (and ``medium``) prefer the 0-6."""
    rng = random.Random(51)
    tiles = list(PAIRS[:28])
    rng.shuffle(tiles)
    h0, h1 = tiles[:14], tiles[14:]
    s = rig("draw", [h0, h1], stock=[], turn=0 if (6, 6) in h0 else 1, forced=(6, 6))
    for _ in range(19):
        seat = current_seat(s)
        assert seat is not None
        s = apply(s, seat, rng.choice(legal_actions(s, seat)))
    return s


def test_exact_search_finds_the_only_winning_line() -> None:
    s = _only_winning_line()
    seat = current_seat(s)
    assert seat == 0
    legal = legal_actions(s, 0)
    win = Action.play((0, 1), "left")
    assert set(legal) == {win, Action.play((0, 6), "left")}
    v = view(s, 0)
    # The exact values: 0-1 wins, 0-6 loses.
    exact, _, horizon = root_values(
        root_of(v), v, legal, (list(s.hands), ()), 99, 10**7
    )
    assert exact is not None and not horizon
    assert exact[legal.index(win)] >= 1.0 > 0.5 > exact[1 - legal.index(win)]
    # The greedy playouts of the engine-step search and medium miss it ...
    old = playout_search(v, candidates(v, legal), random.Random(0), 50.0)
    assert candidates(v, legal)[old.index(max(old))] != win
    assert MediumBot().decide(v, legal, random.Random(0)) != win
    # ... hard's alpha-beta finds it.
    for seed in range(3):
        assert HardBot(budget_ms=20.0).decide(v, legal, random.Random(seed)) == win


def test_the_sampler_is_uniform_under_a_drawn_allowance() -> None:
    """One hidden hand of 5 among 14 unseen tiles; it passed on 6 of them and
    then drew once (at most 1 of the 6). Deals must follow the exact
    conditional law: P(one of the 6) = 6*C(8,4) / (C(8,5) + 6*C(8,4))."""
    unseen = (1 << 14) - 1
    mask = (1 << 6) - 1
    k = Knowledge(
        seat=0,
        unseen=unseen << 14,
        counts=(3, 5),
        stock_count=9,
        limits=((), ((mask << 14, 1),)),
    )
    rng = random.Random(5)
    n = 4000
    one = 0
    for _ in range(n):
        hands, stock = sample_deal(k, rng)
        held = sum(1 << tile_id(*p) for p in hands[1])
        got = (held & mask << 14).bit_count()
        assert got <= 1 and len(hands[1]) == 5 and len(stock) == 9
        one += got
    expect = 6 * comb(8, 4) / (comb(8, 5) + 6 * comb(8, 4))
    assert abs(one / n - expect) < 0.02, (one / n, expect)


def test_line_search_is_bounded_and_deterministic() -> None:
    """Early in a ``draw`` hand (depth-limited) and late (exact): the same
    seed gives the same move."""
    o = options_for("draw", seats=2)
    for moves in (1, 7):
        s = advance(new_match(o, 2), moves, 2)
        seat = current_seat(s)
        assert seat is not None
        v, legal = view(s, seat), legal_actions(s, seat)
        picks = {
            HardBot(budget_ms=10).decide(v, legal, random.Random(4)) for _ in range(2)
        }
        assert len(picks) == 1 and picks <= set(legal)


def test_inference_prefers_deals_that_explain_light_plays() -> None:
    """Seat 1 answered the 6-6 with the 1-6: a deal giving it the 5-6 as well
    (a heavier tile ``medium`` would rather have shed) explains that play less
    well than one without."""
    h0 = [(6, 6), (0, 0), (0, 1), (0, 2)]
    h1 = [(1, 6), (2, 2), (3, 3), (4, 4)]
    s = rig("block", [h0, h1], stock=_rest28(h0, h1), forced=(6, 6))
    s = apply(s, 0, Action.play((6, 6), "root"))
    s = apply(s, 1, Action.play((1, 6), "left"))
    v = view(s, 0)
    full = rules_of(v).full
    events = inference.play_events(v)
    assert [(e.seat, e.tile) for e in events] == [(1, tile_id(1, 6))]
    base = [0, 0]
    light = base[:]
    light[1] = sum(1 << tile_id(*p) for p in [(2, 2), (3, 3), (0, 3)])
    heavy = base[:]
    heavy[1] = sum(1 << tile_id(*p) for p in [(2, 2), (3, 3), (5, 6)])
    assert inference.log_likelihood(events, heavy, full) < inference.log_likelihood(
        events, light, full
    )
    assert inference.log_likelihood(events, light, full) == pytest.approx(0.0)
    cache = inference.TermCache()
    once = inference.log_likelihood(events, heavy, full, cache)
    assert cache and cache.scored == 1
    assert inference.log_likelihood(events, heavy, full, cache) == once
    assert cache.scored == 1  # the second call found the term in the cache


@pytest.mark.parametrize(
    "variant", ["block", "draw", "catalan", "all_fives", "fives_and_threes"]
)
def test_inference_scores_like_medium(variant: str) -> None:
    """``inference.option_scores`` (bit masks, the player's view then) equals
    ``medium.play_score`` computed from that seat's own view at that moment."""
    from games.bots.board import board_of, hand_mask
    from games.bots.knowledge import knowledge_of
    from games.bots.medium import play_score

    checked = 0
    for seats in (2, 3, 4):
        o = options_for(variant, seats=seats)
        r = rules_for(o)
        for seed in range(12):
            s = new_match(o, seed)
            rng = random.Random(seed)
            while s.phase in ("play", "claim"):
                seat = current_seat(s)
                assert seat is not None
                legal = legal_actions(s, seat)
                plays = [a for a in legal if a.type == "play"]
                if s.phase == "claim" or not plays:
                    s = apply(s, seat, legal[0])
                    continue
                v = view(s, seat)
                hand = hand_mask(v)
                a0 = rng.choice(plays)
                s2 = apply(s, seat, a0)
                evs = (
                    []
                    if v["public_state"]["played"] == 0
                    else [
                        e
                        for e in inference.play_events(view(s2, (seat + 1) % seats))
                        if e.tile == tile_id(*a0.tile)
                    ]
                )
                if evs and hand.bit_count() > 1:
                    # What every seat can tell (the model cannot know the
                    # player's own deal).
                    b, k = board_of(v), knowledge_of(v, own_deal=False)
                    # Ends told apart by value and, where end-sums score, by
                    # being a double.
                    scoring = r.end_scoring
                    want = {}
                    for a in plays:
                        end = next(e for e in b.ends if e[0] == a.end)
                        key = (tile_id(*a.tile), end[1], scoring and bool(end[2] & DBL))
                        want[key] = play_score(a, hand, b, k, seat)
                    ev = evs[0]
                    dbls = ev.dbls
                    got = {
                        (u, ev.ends[i], scoring and dbls[i]): sc
                        for u, i, sc in inference.option_scores(ev, hand, r.full)
                    }
                    assert got == pytest.approx(want)
                    played = (
                        tile_id(*a0.tile),
                        ev.ends[ev.end],
                        scoring and dbls[ev.end],
                    )
                    assert played in got
                    checked += 1
                s = s2
    assert checked > 50


def _rest28(*hands: list[tuple[int, int]]) -> list[tuple[int, int]]:
    used = {t for h in hands for t in h}
    return [t for t in PAIRS[:28] if t not in used]


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("all_fives", 2), ("fives_and_threes", 3), ("block", 2), ("block", 3)],
)
def test_the_playouts_of_model_search_play_like_medium(
    variant: str, seats: int
) -> None:
    """``ModelPlayout.pick``, given the true deal, plays a move ``medium`` rates
    best from that seat's own view (its hand, what it cannot see, the next
    seat's known lacks): the playouts' opponents are ``medium`` (block: its
    open-numbers terms included)."""
    from games.bots.board import board_of, hand_mask
    from games.bots.hard.model_search import ModelPlayout
    from games.bots.knowledge import knowledge_of
    from games.bots.medium import play_score

    o = options_for(variant, seats=seats)
    r = rules_for(o)
    checked = 0
    for seed in range(20):
        s = new_match(o, seed)
        rng = random.Random(seed)
        while s.phase in ("play", "claim"):
            seat = current_seat(s)
            assert seat is not None
            legal = legal_actions(s, seat)
            plays = [a for a in legal if a.type == "play"]
            if s.phase == "play" and len(plays) > 1 and s.played:
                v = view(s, seat)
                b, k, hand = board_of(v), knowledge_of(v), hand_mask(v)
                lacks = [k.lacks(x) for x in range(seats)]
                hands = list(s.hands)
                deal = ModelPlayout(r, r.side_of[seat], hands, s.stock, 1, lacks)
                ends = [(e[1], bool(e[2] & DBL)) for e in s.ends]
                t, _, _, ov, od = deal.pick(seat, 0, hand, *ends[0], *ends[1])
                # The end played on is the one left as it was: the other.
                on = ends[0] if (ov, od) == ends[1] else ends[1]
                scores = {}
                for p in plays:
                    end = next(e for e in b.ends if e[0] == p.end)
                    key = (tile_id(*p.tile), end[1], bool(end[2] & DBL))
                    scores[key] = play_score(p, hand, b, k, seat)
                assert scores[(t, *on)] == pytest.approx(max(scores.values()))
                checked += 1
            s = apply(s, seat, rng.choice(legal))
    assert checked > 40


def test_model_search_is_deterministic() -> None:
    """All Fives, early and late in a hand: the same seed gives the same values
    (so the same move), another seed other samples."""
    from games.bots.hard.model_search import model_search

    o = options_for("all_fives", seats=2)
    checked = 0
    for seed in range(10):
        for moves in (2, 9):
            s = advance(new_match(o, seed), moves, seed)
            seat = current_seat(s)
            if seat is None or s.phase != "play" or not s.played:
                continue
            v, legal = view(s, seat), legal_actions(s, seat)
            cands = candidates(v, legal)
            if len(cands) < 2 or any(a.type != "play" for a in cands):
                continue
            once = model_search(v, cands, random.Random(4), 10)
            assert model_search(v, cands, random.Random(4), 10) == once
            assert model_search(v, cands, random.Random(5), 10) != once
            pick = HardBot(budget_ms=10).decide(v, legal, random.Random(4))
            assert pick == cands[once.index(max(once))]
            checked += 1
    assert checked >= 5


def _rows(
    values: list[list[float]], lw: float = 0.0
) -> list[tuple[float, list[float]]]:
    return [(lw, v) for v in values]


def test_a_search_leaves_mediums_move_only_when_clearly_better() -> None:
    """``gated_means``: candidate 0 is ``medium``'s favourite. A rival whose lead
    is within ``z`` standard errors is capped at the favourite's value (ties go
    to it); a rival that wins deal after deal keeps its mean."""
    noisy = _rows([[0.5, 1.0], [0.5, 0.0], [0.5, 1.0], [0.5, 0.2]])  # 0.55 vs 0.5
    assert gated_means(noisy, 2, 1.0) == [0.5, 0.5]
    assert gated_means(noisy, 2, 0.0) == weighted_means(noisy, 2)  # no gate
    steady = _rows([[0.5, 0.6], [0.4, 0.5], [0.6, 0.7], [0.5, 0.58]])
    means = gated_means(steady, 2, 2.0)
    assert means[1] == pytest.approx(0.595) and means[1] > means[0]
    # a worse rival keeps its (lower) mean; three candidates gate independently
    mixed = _rows([[0.5, 0.2, 0.9], [0.5, 0.1, 0.8], [0.5, 0.3, 0.9], [0.5, 0.2, 0.85]])
    assert gated_means(mixed, 3, 2.0) == pytest.approx([0.5, 0.2, 0.8625])


def test_the_gate_counts_the_weights() -> None:
    """Weighted deals: the standard error follows the effective number of deals.
    The same four deals pass the gate when they weigh the same, and not when the
    two that disagree most carry nearly all the weight."""
    lead = [[0.0, 0.6], [0.0, 0.0], [0.0, 0.3], [0.0, 0.3]]
    even = _rows(lead)
    assert gated_means(even, 2, 2.0)[1] == pytest.approx(0.3)
    skewed = [(0.0, lead[0]), (0.0, lead[1]), (-9.0, lead[2]), (-9.0, lead[3])]
    means = gated_means(skewed, 2, 2.0)
    assert weighted_means(skewed, 2)[1] == pytest.approx(0.3)
    assert means[1] == means[0] == 0.0
