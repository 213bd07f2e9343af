"""``model_search``'s two levels: the playout pauses at the searching seat's
next choice, every play there is played out, and one move is chosen per
information set (the deals that look the same to that seat), cross-validated."""

from __future__ import annotations

import math
import random

import pytest

from games.bots import bot_for
from games.bots.board import hand_mask
from games.bots.hard import candidates, inference
from games.bots.hard.deals import deal_masks, root_plays
from games.bots.hard.line_playout import LinePlayout
from games.bots.hard.model_search import ModelPlayout, _WeightedDeals, grouped_means
from games.bots.knowledge import knowledge_of
from games.engine import (
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import rules_for
from games.engine.tiles import NUM_MASK, PAIRS, tile_id


def _branch(key: object, vals: list[float], dflt: int = 0) -> tuple:
    return ((key,), vals, dflt)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("all_fives", 2), ("all_fives", 4), ("fives_and_threes", 3), ("block", 2)],
)
def test_the_models_move_at_the_pause_is_the_plain_playout(
    variant: str, seats: int
) -> None:
    """On sampled deals of real positions, each candidate's branch, read at the
    model's own move, is worth exactly the plain model playout (``plain``: the
    model plays every seat, the searching one too), and the deal's hands are
    left as they were."""
    o = options_for(variant, seats=seats)
    r = rules_for(o)
    branched = checked = 0
    for seed in range(8):
        s = new_match(o, seed)
        rng = random.Random(seed)
        while s.phase in ("play", "claim"):
            seat = current_seat(s)
            assert seat is not None
            legal = legal_actions(s, seat)
            v = view(s, seat)
            cands = candidates(v, legal)
            if len(cands) > 1 and all(a.type == "play" for a in cands):
                k = knowledge_of(v)
                lacks = [k.lacks(x) for x in range(seats)]
                own = hand_mask(v)
                hands, stock = deal_masks(k, rng, seats, seat, own)
                side = r.side_of[seat]
                plain = ModelPlayout(r, side, list(hands), stock, 10**7, lacks)
                want = [plain.plain(seat, *p) for p in root_plays(v, cands)]
                assert plain.hands == hands
                two = ModelPlayout(r, side, list(hands), stock, 10**7, lacks)
                got = [two.branch(seat, *p) for p in root_plays(v, cands)]
                assert two.hands == hands
                for w, (_, vals, dflt) in zip(want, got, strict=True):
                    assert vals[dflt] == pytest.approx(w)
                    branched += len(vals) > 1
                checked += 1
            s = apply(s, seat, rng.choice(legal))
    assert checked > 20
    assert branched > 10  # the searching seat had real choices to branch on


def test_the_walk_pauses_at_the_next_choice_and_records_what_was_seen() -> None:
    """Two seats, no stock: the other seat plays, then the walk pauses at the
    stopping seat's turn when it has two plays, with the ends left then."""
    r = rules_for(options_for("block", seats=2))
    t01, t12, t13 = tile_id(0, 1), tile_id(1, 2), tile_id(1, 3)
    t44, t55 = tile_id(4, 4), tile_id(5, 5)
    # Line 0 ... 0 (ends 0/0); seat 1 holds 0-1 and plays it; seat 0 then
    # holds 1-2 and 1-3 (two plays on the 1) besides two far doubles.
    hands = [1 << t12 | 1 << t13 | 1 << t44, 1 << t01 | 1 << t55]
    deal = LinePlayout(r, 0, hands, (), 10_000)
    assert deal.walk(1, 0, 0, False, 0, False, 0) == 0.0  # nothing scored yet
    assert deal.paused == (0, 1, False, 0, False)
    assert deal.hands[1] == 1 << t55  # the walk leaves the hands as played
    # Without a stop the same walk runs to the hand's end.
    deal = LinePlayout(r, 0, list(hands), (), 10_000)
    deal.walk(1, 0, 0, False, 0, False)
    assert deal.paused is None


def test_the_walk_passes_through_a_pass_and_a_single_play() -> None:
    """A seat without a play passes (block); a turn of the stopping seat with
    one play only is played by the model: the walk pauses at a real choice."""
    r = rules_for(options_for("block", seats=2))
    t12, t13, t55, t66 = tile_id(1, 2), tile_id(1, 3), tile_id(5, 5), tile_id(6, 6)
    hands = [1 << t12 | 1 << t13, 1 << t55 | 1 << t66]
    deal = LinePlayout(r, 0, list(hands), (), 10_000)
    deal.walk(1, 0, 1, False, 0, False, 0)
    assert deal.paused == (0, 1, False, 0, False)
    assert deal.hands == hands
    # Seat 0 holds one play at each turn (1-2 on the 1, then 2-6 on the 2):
    # seat 1 passes throughout and seat 0 goes out without a pause.
    t26 = tile_id(2, 6)
    deal = LinePlayout(r, 0, [1 << t12 | 1 << t26, 1 << t55], (), 10_000)
    assert deal.walk(1, 0, 1, False, 0, False, 0) > 1.0  # seat 0's side won
    assert deal.paused is None
    assert deal.hands[0] == 0


@pytest.mark.parametrize(
    ("hand", "ends", "two"),
    [
        ((1, 2), (1, 0), False),  # one tile, one end
        ((1, 2), (1, 2), True),  # one tile on either end: two lines
        ((1, 1), (1, 1), False),  # both ends alike: one play
        ((1, 2, 1, 3), (1, 5), True),
        ((2, 3, 4, 5), (1, 6), False),  # no play at all
    ],
)
def test_two_plays(hand: tuple[int, ...], ends: tuple[int, int], two: bool) -> None:
    mask = 0
    for i in range(0, len(hand), 2):
        mask |= 1 << tile_id(hand[i], hand[i + 1])
    a, b = ends
    assert LinePlayout.two_plays(mask, a, False, b, False) is two
    assert bool(mask & (NUM_MASK[a] | NUM_MASK[b])) or not two


def test_grouped_means_without_choices_is_the_weighted_mean() -> None:
    """Single-valued branches: the deals' weighted mean per candidate."""
    rows = [
        (0.0, [_branch(1, [4.0]), _branch(1, [1.0])]),
        (0.0, [_branch(2, [2.0]), _branch(1, [3.0])]),
        (-1e9, [_branch(3, [100.0]), _branch(1, [100.0])]),  # weight ~0
    ]
    assert grouped_means(rows, 2, 2) == pytest.approx([3.0, 2.0])


def test_a_move_that_wins_in_both_halves_is_taken() -> None:
    """One information set of four deals where the second move is better on
    every deal: the set is worth that move's sum, not the model's."""
    rows = [(0.0, [_branch("s", [0.0, 1.0 + i], 0)]) for i in range(4)]
    assert grouped_means(rows, 1, 4) == pytest.approx([(1 + 2 + 3 + 4) / 4])
    # With fewer deals than the minimum the model's move is kept.
    assert grouped_means(rows, 1, 5) == pytest.approx([0.0])


def test_noise_is_not_taken_for_an_edge() -> None:
    """A move better on the even deals only and worse on the odd ones: chosen
    on one half, scored on the other, it is worth less than the best of the
    two sums (which the plain maximum would claim)."""
    vals = [[0.0, 5.0], [0.0, -5.0], [0.0, 5.0], [0.0, -5.0]]
    rows = [(0.0, [_branch("s", v, 0)]) for v in vals]
    got = grouped_means(rows, 1, 2)[0]
    assert got == pytest.approx((-5.0 - 5.0) / 4)  # chosen on evens, lost on odds
    assert got < 0.0  # the plain max would have said 0 (the model) or more


def test_information_sets_are_kept_apart() -> None:
    """Deals that saw different things are chosen for separately."""
    rows = [
        (0.0, [_branch("x", [0.0, 2.0])]),
        (0.0, [_branch("x", [0.0, 2.0])]),
        (0.0, [_branch("y", [3.0, 0.0])]),
        (0.0, [_branch("y", [3.0, 0.0])]),
    ]
    assert grouped_means(rows, 1, 2) == pytest.approx([(2 + 2 + 3 + 3) / 4])


def test_grouped_means_of_no_deals() -> None:
    assert grouped_means([], 3, 4) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("scoring", ["all_fives", "fives_and_threes"])
def test_the_threat_tables_give_the_computed_threat(scoring: str) -> None:
    """``line_model.threat`` looks the points up in tables; they equal the
    end-sum of every play of every tile, computed by the engine's scoring."""
    from games.bots.hard.line_model import threat
    from games.engine.scoring import end_points

    def worth(v: int, d: bool) -> int:
        return v + v if d else v

    rng = random.Random(5)
    for set_max in (6, 9, 12):
        tiles = [tile_id(a, b) for b in range(set_max + 1) for a in range(b + 1)]
        for _ in range(300):
            nv, ov = rng.randint(0, set_max), rng.randint(0, set_max)
            nd, od = rng.random() < 0.3, rng.random() < 0.3
            mask = 0
            for t in rng.sample(tiles, rng.randint(0, 12)):
                mask |= 1 << t
            want = 0
            for v, keep in ((nv, worth(ov, od)), (ov, worth(nv, nd))):
                for t in tiles:
                    if mask >> t & 1 and NUM_MASK[v] >> t & 1:
                        lo, hi = PAIRS[t]
                        x = hi if lo == v else lo
                        want = max(want, end_points(scoring, worth(x, lo == hi) + keep))
            assert threat(scoring, nv, nd, ov, od, mask) == want


def test_the_rate_follows_the_playouts_cost() -> None:
    """Scoring playouts with three or four seats cost more per unit: they get
    the lower rate; two-seat scoring and block their own."""
    from games.bots.hard import model_search as ms

    def rate(variant: str, seats: int) -> float:
        return ms.nodes_per_ms(rules_for(options_for(variant, seats=seats)))

    assert rate("all_fives", 2) == rate("fives_and_threes", 2)
    assert rate("all_fives", 2) == ms.NODES_PER_MS_SCORING
    for seats in (3, 4):
        assert rate("all_fives", seats) == ms.NODES_PER_MS_SCORING_MANY
        assert rate("fives_and_threes", seats) == ms.NODES_PER_MS_SCORING_MANY
    assert ms.NODES_PER_MS_SCORING_MANY < ms.NODES_PER_MS_SCORING
    for seats in (2, 3, 4):
        assert rate("block", seats) == ms.NODES_PER_MS_BLOCK


def _weighted_position():  # type: ignore[no-untyped-def]
    """A block position where the opponent's plays tell a lot (``medium`` plays
    both seats): the view, and its knowledge and events."""
    o = options_for("block", seats=2)
    bot = bot_for("medium")
    for seed in range(50):
        s = new_match(o, seed)
        for _ in range(7):
            seat = current_seat(s)
            if seat is None:
                break
            legal = legal_actions(s, seat)
            a = bot.choose(view(s, seat), legal, random.Random(seed))
            assert a is not None
            s = apply(s, seat, a)
        seat = current_seat(s)
        if seat is None:
            continue
        v = view(s, seat)
        events = inference.play_events(v)
        if len(events) >= 3:
            return v, knowledge_of(v), events
    raise AssertionError("no position")


def test_thinning_keeps_the_deals_expected_weights() -> None:
    """The thinned stream (played deals and their weights) estimates the same
    weighted chance of each unseen tile being in the opponent's hand as
    weighing every deal, while playing out only part of the deals."""
    v, k, events = _weighted_position()
    r = rules_for(options_for("block", seats=2))
    seat = v["seat"]
    own = hand_mask(v)
    n = 20000

    def chances(rows: list[tuple[float, int]]) -> dict[int, float]:
        total = sum(math.exp(lw) for lw, _ in rows)
        return {
            t: sum(math.exp(lw) for lw, h in rows if h >> t & 1) / total
            for t in range(28)
            if k.unseen >> t & 1
        }

    rng = random.Random(1)
    plain = []
    for _ in range(n):
        hands, _ = deal_masks(k, rng, 2, seat, own)
        plain.append((inference.log_likelihood(events, hands, r.full), hands[1 - seat]))
    deals = _WeightedDeals(k, random.Random(2), r, seat, own, events)
    thinned = []
    for _ in range(n):
        lw, hands, _ = deals.draw()
        if lw is not None:
            thinned.append((lw, hands[1 - seat]))
    assert len(thinned) < 0.8 * n  # deals were really thinned out
    want, got = chances(plain), chances(thinned)
    assert max(abs(want[t] - got[t]) for t in want) < 0.05
    flat = chances([(0.0, h) for _, h in plain])
    assert max(abs(want[t] - flat[t]) for t in want) > 0.15  # the weights matter


def test_a_deal_is_played_as_often_as_its_weight_says() -> None:
    """Below the reference a deal is played with probability ``exp(lw - ref)``
    and counts 1; above it, it is always played and counts ``exp(lw - ref)``:
    either way its expected weight is ``exp(lw - ref)``."""
    k = knowledge_of(view(new_match(options_for("block", seats=2), 0), 0))
    r = rules_for(options_for("block", seats=2))
    deals = _WeightedDeals(k, random.Random(3), r, 0, 0, [])
    deals.events = [None]  # type: ignore[list-item]  # weigh as if plays were seen
    deals.ref = -1.0
    for lw, rate, weight in ((-1.0 + math.log(0.25), 0.25, 0.0), (0.5, 1.0, 1.5)):
        deals._weighed = lambda lw=lw: (lw, [], ())  # type: ignore[method-assign]
        got = [deals.draw()[0] for _ in range(4000)]
        played = [w for w in got if w is not None]
        assert abs(len(played) / len(got) - rate) < 0.03
        assert played and all(w == pytest.approx(weight) for w in played)
