"""Golden tests: one or more hand-built positions per rule statement of RULES.md."""

from __future__ import annotations

import pytest

from games.engine import (
    Action,
    IllegalAction,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import rules_for
from games.engine.rules import _choose_opener
from games.engine.tiles import NAMES, mask_pips, set_size, tile_id
from tests.support.positions import ends, mask, play, rig

CLAIM = Action.claim
CONT = Action.continue_()
MUG = Action.muggins()
DRAW = Action.draw()
PASS = Action.pass_()

# ---------------------------------------------------------------- §1 common ground


@pytest.mark.parametrize(("n", "size"), [(6, 28), (9, 55), (12, 91)])
def test_set_sizes(n: int, size: int) -> None:
    assert set_size(n) == size
    s = new_match(options_for("draw", set_max=n, seats=2), 1)
    dealt = 0
    for h in s.hands:
        dealt |= h
    for t in s.stock:
        dealt |= 1 << t
    assert dealt == (1 << size) - 1


def test_pips_and_blanks() -> None:
    assert mask_pips(mask([(0, 0), (0, 3), (5, 6)])) == 14
    assert NAMES[tile_id(7, 12)] == "7-12"


def test_play_passes_to_next_seat() -> None:
    s = rig("block", [[(6, 6), (1, 2)], [(6, 5), (3, 4)], [(6, 4), (0, 0)]], turn=1)
    s = play(s, 1, (6, 5), "root")
    assert current_seat(s) == 2
    s = play(s, 2, (6, 4), "right")
    assert current_seat(s) == 0


def test_partners_sit_opposite() -> None:
    s = new_match(options_for("block", seats=4, partnership=True), 3)
    assert view(s, 0)["teams"] == [[0, 2], [1, 3]]
    assert len(s.scores) == 2


def test_dealer_rotates_and_seeded_deal_is_deterministic() -> None:
    o = options_for("draw", seats=3)
    a, b = new_match(o, 99), new_match(o, 99)
    assert a == b and a.dealer == 0
    assert new_match(o, 100).hands != a.hands
    s = a
    while s.phase != "hand_over":
        seat = current_seat(s)
        assert seat is not None
        s = apply(s, seat, legal_actions(s, seat)[0])
    s = apply(s, 2, Action.next_hand())
    assert s.dealer == 1 and s.hand_no == 2


def test_exposed_number_is_the_end() -> None:
    s = rig("draw", [[(6, 6), (6, 2)], [(6, 4), (1, 1)]])
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 4), "left")
    assert ends(s) == {"left": 4, "right": 6}


def test_pass_only_without_play_and_without_draw() -> None:
    s = rig("block", [[(6, 6), (1, 2), (6, 1)], [(0, 0), (3, 4)]])
    s = play(s, 0, (6, 6), "root")
    assert legal_actions(s, 1) == [PASS]
    s = apply(s, 1, PASS)
    assert current_seat(s) == 0


def test_blocked_hand_detected_when_nobody_can_play() -> None:
    s = rig("block", [[(6, 6), (1, 2)], [(6, 5), (3, 4)]])
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 5), "left")  # ends 5 and 6: nobody holds them
    assert s.phase == "hand_over"
    assert s.hand_result is not None and s.hand_result["reason"] == "blocked"


def test_side_goes_out_when_a_partner_does() -> None:
    hands = [[(6, 6)], [(1, 2), (0, 0)], [(5, 5), (4, 4)], [(3, 3), (0, 1)]]
    s = rig("block", hands, partnership=True)
    s = play(s, 0, (6, 6), "root")
    assert s.phase == "hand_over"
    # the partner's 18 pips do not count; the opponents' 3 + 6 + 1 do
    assert s.scores == (10, 0)


def test_heaviest_tile_tie_goes_to_seat_nearest_dealer() -> None:
    o = options_for("catalan", seats=3)
    r = rules_for(o)
    hands = (mask([(5, 4), (0, 1)]), mask([(0, 2)]), mask([(6, 3), (1, 2)]))
    # dealer 0: seat 1 then 2 then 0; seat 2 is nearer than seat 0
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (2, (tile_id(6, 3),))
    assert _choose_opener(r, hands, 1, 1, -1, -1) == (2, (tile_id(6, 3),))
    assert _choose_opener(r, hands, 1, 2, -1, -1) == (0, (tile_id(5, 4),))


# ---------------------------------------------------------------- §2 catalogue

DEALS = [
    ("block", 6, 2, "standard", 8),
    ("block", 6, 3, "standard", 6),
    ("block", 6, 4, "standard", 6),
    ("block", 6, 5, "standard", 5),
    ("block", 9, 4, "standard", 9),
    ("block", 12, 4, "standard", 12),
    ("block", 6, 4, "002", 7),
    ("block", 6, 2, "002", 7),
    ("draw", 6, 2, "standard", 7),
    ("draw", 6, 3, "standard", 5),
    ("draw", 6, 4, "standard", 4),
    ("draw", 6, 5, "standard", 3),
    ("draw", 6, 3, "002", 5),
    ("draw", 6, 4, "002", 5),
    ("cross", 6, 4, "standard", 4),
    ("cross", 9, 3, "standard", 7),
    ("cross", 12, 4, "standard", 5),
    ("grand_cross", 9, 2, "standard", 7),
    ("grand_cross", 12, 5, "standard", 5),
    ("all_fives", 6, 4, "standard", 5),
    ("fives_and_threes", 9, 3, "standard", 5),
    ("fives", 6, 2, "standard", 7),
    ("fives", 6, 3, "standard", 5),
    ("spider", 6, 2, "standard", 7),
]


@pytest.mark.parametrize(("variant", "n", "seats", "deal", "each"), DEALS)
def test_deal_tables(variant: str, n: int, seats: int, deal: str, each: int) -> None:
    kw = {"deal": deal} if deal != "standard" else {}
    o = options_for(variant, set_max=n, seats=seats, **kw)
    assert o.tiles_per_seat == each
    s = new_match(o, 5)
    assert [h.bit_count() for h in s.hands] == [each] * seats
    assert len(s.stock) == set_size(n) - each * seats


@pytest.mark.parametrize("each", [5, 7])
def test_catalan_deals_5_or_7_and_4x7_leaves_no_stock(each: int) -> None:
    s = new_match(options_for("catalan", seats=4, tiles_per_seat=each), 1)
    assert len(s.stock) == 28 - 4 * each
    assert s.options.partnership


def test_block_sets_tiles_aside_and_passes() -> None:
    s = rig("block", [[(6, 6), (1, 2), (6, 2)], [(0, 0), (3, 4)]], stock=[(6, 1)])
    s = play(s, 0, (6, 6), "root")
    assert legal_actions(s, 1) == [PASS]
    with pytest.raises(IllegalAction):
        apply(s, 1, DRAW)


def test_draw_until_playable_then_pass_when_empty() -> None:
    s = rig("draw", [[(6, 6), (1, 2)], [(0, 0), (3, 4)]], stock=[(0, 1), (6, 2)])
    s = play(s, 0, (6, 6), "root")
    assert legal_actions(s, 1) == [DRAW]
    s = apply(s, 1, DRAW)  # 0-1 does not fit: draw again
    assert current_seat(s) == 1 and legal_actions(s, 1) == [DRAW]
    s = apply(s, 1, DRAW)  # 6-2 fits: must play
    assert current_seat(s) == 1
    assert all(a.type == "play" for a in legal_actions(s, 1))
    with pytest.raises(IllegalAction):
        apply(s, 1, DRAW)


def test_highest_double_opens_forced() -> None:
    s = new_match(options_for("block", seats=2), 7)
    acts = legal_actions(s, s.turn)
    assert len(acts) == 1 and acts[0].end == "root"
    a, b = acts[0].tile  # type: ignore[misc]
    assert a == b
    held = [d for d in range(7) if any(h >> tile_id(d, d) & 1 for h in s.hands)]
    assert a == max(held)


def test_no_double_dealt_redeals_or_heaviest() -> None:
    hands = (mask([(5, 6), (0, 1)]), mask([(4, 6), (2, 3)]))
    r = rules_for(options_for("block", seats=2))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (-1, ())
    r = rules_for(options_for("block", seats=2, no_double="heaviest"))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (0, (tile_id(5, 6),))
    r = rules_for(options_for("spider"))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (-1, ())


def test_all_fives_holder_of_highest_double_opens_with_any_tile() -> None:
    r = rules_for(options_for("all_fives", seats=2))
    hands = (mask([(2, 2), (0, 1)]), mask([(4, 4), (2, 3)]))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (1, ())


def test_spider_lowest_double_from_one_one_and_zero_zero_last() -> None:
    r = rules_for(options_for("spider"))
    hands = (mask([(0, 0), (3, 3)]), mask([(2, 2), (5, 6)]))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (1, (tile_id(2, 2),))
    hands = (mask([(0, 0), (3, 4)]), mask([(5, 6)]))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (0, (0,))


def test_opening_winner_rule_for_later_hands() -> None:
    r = rules_for(options_for("draw", seats=3, opening="winner"))
    hands = (mask([(6, 6)]), mask([(1, 2)]), mask([(3, 4)]))
    assert _choose_opener(r, hands, 1, 0, -1, -1) == (0, (tile_id(6, 6),))
    assert _choose_opener(r, hands, 2, 1, 2, 0) == (2, ())
    # a tied hand: the seat after the last opener opens, any tile
    assert _choose_opener(r, hands, 2, 1, -1, 0) == (1, ())


def test_fives_later_hand_opened_by_last_winner() -> None:
    s = rig("fives", [[(6, 6)], [(1, 2), (0, 3)]], forced=(6, 6))
    s = play(s, 0, (6, 6), "root")
    assert s.phase == "hand_over" and s.last_winner == 0
    s = apply(s, 1, Action.next_hand())
    assert s.turn == 0 and s.opening == ()
    assert len(legal_actions(s, 0)) == s.hands[0].bit_count()


# ---- §2.1 Cross and Grand Cross


def test_cross_first_four_plays_go_on_four_arms() -> None:
    hands = [[(6, 6), (6, 1), (1, 2), (6, 3)], [(6, 2), (6, 4), (2, 2), (0, 0)]]
    s = rig("cross", hands, stock=[(0, 5)])
    s = play(s, 0, (6, 6), "root")
    assert ends(s) == {"n": 6, "e": 6, "s": 6, "w": 6}
    s = play(s, 1, (6, 2), "n")
    # 2-2 matches the n end, but the empty arms come first
    with pytest.raises(IllegalAction, match="empty arm"):
        play(s, 0, (1, 2), "n")
    assert {a.end for a in legal_actions(s, 0)} == {"e", "s", "w"}
    s = play(s, 0, (6, 1), "e")
    s = play(s, 1, (6, 4), "s")
    s = play(s, 0, (6, 3), "w")
    assert ends(s) == {"n": 2, "e": 1, "s": 4, "w": 3}
    assert {a.end for a in legal_actions(s, 1)} == {"n"}  # now any end


def test_grand_cross_double_adds_two_ends() -> None:
    hands = [[(6, 6), (6, 1), (6, 3), (2, 5)], [(6, 2), (6, 4), (2, 2), (0, 0)]]
    s = rig("grand_cross", hands, set_max=9)
    for seat, tile, end in [
        (0, (6, 6), "root"),
        (1, (6, 2), "n"),
        (0, (6, 1), "e"),
        (1, (6, 4), "s"),
        (0, (6, 3), "w"),
    ]:
        s = play(s, seat, tile, end)
    assert len(s.ends) == 4
    s = play(s, 1, (2, 2), "n")
    assert len(s.ends) == 6
    assert ends(s)["2-2:l"] == 2 and ends(s)["2-2:r"] == 2 and ends(s)["n"] == 2
    arms = {a["id"]: a for a in view(s, 0)["layout"]["arms"]}
    assert arms["2-2:l"]["start"] == [2, 2]
    assert {a.end for a in legal_actions(s, 0)} == {"n", "2-2:l", "2-2:r"}


def test_plain_cross_doubles_do_not_branch() -> None:
    hands = [[(6, 6), (6, 1), (6, 3), (2, 5)], [(6, 2), (6, 4), (2, 2), (0, 0)]]
    s = rig("cross", hands)
    for seat, tile, end in [
        (0, (6, 6), "root"),
        (1, (6, 2), "n"),
        (0, (6, 1), "e"),
        (1, (6, 4), "s"),
        (0, (6, 3), "w"),
        (1, (2, 2), "n"),
    ]:
        s = play(s, seat, tile, end)
    assert len(s.ends) == 4


# ---- §2.2 Fives spinner


def test_fives_spinner_long_sides_first_and_counts_while_open() -> None:
    hands = [[(5, 5), (5, 3), (1, 1), (0, 2)], [(5, 2), (5, 1), (4, 6), (0, 1)]]
    s = rig("fives", hands, stock=[(6, 6)])
    s = play(s, 0, (5, 5), "root")  # opening counts once: 10
    assert s.scores == (10, 0)
    assert {a.end for a in legal_actions(s, 1)} == {"left", "right"}
    s = play(s, 1, (5, 2), "left")  # 2 + spinner 5+5 = 12: nothing
    assert s.scores == (10, 0)
    s = play(s, 0, (5, 3), "right")  # long sides covered: 2 + 3 = 5
    assert s.scores == (15, 0)
    assert set(ends(s)) == {"left", "right", "5-5:l", "5-5:r"}
    s = play(s, 1, (5, 1), "5-5:l")  # 2 + 3 + 1 = 6
    assert s.scores == (15, 0)
    assert view(s, 0)["end_sum"] == 6


def test_fives_first_double_played_later_becomes_spinner() -> None:
    hands = [[(3, 4), (4, 1), (0, 0)], [(4, 4), (2, 3), (6, 6)]]
    s = rig("fives", hands, stock=[(1, 2)])
    s = play(s, 0, (3, 4), "root")  # 7
    s = play(s, 1, (4, 4), "right")  # 3 + 8 = 11, spinner at an end
    assert s.spinner == tile_id(4, 4) and len(s.ends) == 2
    s = play(s, 0, (4, 1), "right")  # 3 + 1 = 4; short sides open
    assert set(ends(s)) == {"left", "right", "4-4:l", "4-4:r"}


def test_fives_scores_automatically_and_ends_match_at_target() -> None:
    hands = [[(5, 5), (0, 1)], [(2, 3), (4, 6)]]
    s = rig("fives", hands, scores=(95, 0))
    s = play(s, 0, (5, 5), "root")
    assert s.phase == "match_over" and s.winners == (0,)
    assert s.hand_result is not None and s.hand_result["reason"] == "target"


# ---- §2.3 Spider


def test_spider_centre_open_on_four_sides_and_multi_double_move() -> None:
    hands = [
        [(1, 1), (2, 2), (3, 3), (4, 5)],
        [(1, 2), (1, 3), (6, 6), (0, 4)],
    ]
    s = rig("spider", hands, stock=[(0, 5), (0, 6)], forced=(1, 1))
    s = play(s, 0, (1, 1), "root")
    assert ends(s) == {"n": 1, "e": 1, "s": 1, "w": 1}
    s = play(s, 1, (1, 2), "n")
    # seat 0 holds 2-2 and 3-3: only 2-2 fits (n shows 2)
    s = play(s, 0, (2, 2), "n")
    assert s.phase == "close" and current_seat(s) == 0
    assert Action.close(["n"]) in legal_actions(s, 0)
    s = apply(s, 0, Action.close(["n"]))
    assert view(s, 1)["layout"]["ends"][0]["state"] == "closed"
    assert all(a.end != "n" for a in legal_actions(s, 1) if a.type == "play")
    with pytest.raises(IllegalAction, match="closed"):
        apply(s, 1, Action.play((1, 3), "n"))


def test_spider_lays_several_doubles_in_one_move_and_closes_any() -> None:
    hands = [[(1, 1), (2, 2), (3, 3), (4, 5)], [(1, 2), (1, 3), (6, 6), (1, 4)]]
    s = rig("spider", hands, forced=(1, 1))
    s = play(s, 0, (1, 1), "root")
    s = play(s, 1, (1, 2), "n")
    s2 = s.copy()
    s2.turn = 1
    s2 = play(s2, 1, (1, 3), "e")
    move = Action.play_doubles([((2, 2), "n"), ((3, 3), "e")])
    assert move in legal_actions(s2, 0)
    s3 = apply(s2, 0, move)
    assert s3.phase == "close"
    assert set(legal_actions(s3, 0)) >= {
        Action.close(["n"]),
        Action.close(["e"]),
        Action.close(["n", "e"]),
        CONT,
    }
    s4 = apply(s3, 0, Action.close(["e"]))
    assert current_seat(s4) == 1
    closed = {e["id"] for e in view(s4, 1)["layout"]["ends"] if e["state"] == "closed"}
    assert closed == {"e"}


# ---------------------------------------------------------------- §3.1


def test_block_out_scores_all_losers_pips() -> None:
    hands = [[(6, 6)], [(1, 2), (0, 0)], [(5, 5), (4, 3)]]
    s = rig("block", hands)
    s = play(s, 0, (6, 6), "root")
    assert s.scores == (20, 0, 0)
    assert s.hand_result is not None and s.hand_result["pips"] == [0, 3, 17]


def test_block_blocked_each_loser_pays_the_difference() -> None:
    hands = [[(6, 6), (1, 0)], [(6, 5), (2, 2)], [(3, 3), (4, 4)]]
    s = rig("block", hands)
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 5), "left")  # ends 5 and 6: blocked
    assert s.phase == "hand_over"
    # totals 1, 4, 14: winner seat 0 gets (4-1) + (14-1)
    assert s.scores == (16, 0, 0)


def test_block_blocked_partners_compare_sides() -> None:
    hands = [[(6, 6), (1, 0)], [(6, 5), (2, 2)], [(3, 3)], [(0, 0), (4, 4)]]
    s = rig("block", hands, partnership=True)
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 5), "left")
    # side 0: 1 + 6 = 7; side 1: 4 + 8 = 12
    assert s.scores == (5, 0)


def test_block_tie_for_lowest_nobody_scores() -> None:
    hands = [[(6, 6), (1, 2)], [(6, 5), (0, 3)]]
    s = rig("block", hands)
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 5), "left")
    assert s.phase == "hand_over" and s.scores == (0, 0)
    assert s.hand_result is not None and s.hand_result["tie"]


def test_match_ends_at_target() -> None:
    s = rig("block", [[(6, 6)], [(5, 5)]], scores=(95, 90))
    s = play(s, 0, (6, 6), "root")
    assert s.phase == "match_over" and s.winners == (0,)
    with pytest.raises(IllegalAction, match="over"):
        apply(s, 0, Action.next_hand())


def test_match_highest_score_wins_when_several_pass_target() -> None:
    from games.engine.scoring import match_winners

    r = rules_for(options_for("block", seats=3))
    assert match_winners(r, (120, 130, 40)) == (1,)
    assert match_winners(r, (90, 99, 40)) == ()


# ---------------------------------------------------------------- §3.2


def test_opening_5_5_in_all_fives_is_worth_10() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(5, 3), (4, 6)]])
    s = play(s, 0, (5, 5), "root")
    assert s.phase == "claim" and legal_actions(s, 0) == [CLAIM(10), CONT]
    s = apply(s, 0, CLAIM(10))
    assert s.scores == (10, 0) and current_seat(s) == 1


def test_a_three_and_six_six_make_15() -> None:
    s = rig("all_fives", [[(6, 6), (0, 1)], [(6, 3), (4, 4)]])
    s = play(s, 0, (6, 6), "root")
    assert s.phase == "play"  # 12 scores nothing
    s = play(s, 1, (6, 3), "left")
    assert legal_actions(s, 1) == [CLAIM(15), CONT]


def test_fives_and_threes_fifteen_is_worth_15_and_threes_count() -> None:
    s = rig("fives_and_threes", [[(6, 6), (0, 1)], [(6, 3), (4, 4)]])
    s = play(s, 0, (6, 6), "root")  # 12: divisible by 3
    assert legal_actions(s, 0) == [CLAIM(12), CONT]
    s = apply(s, 0, CLAIM(12))
    s = play(s, 1, (6, 3), "left")
    assert legal_actions(s, 1) == [CLAIM(15), CONT]
    s2 = rig("all_fives", [[(4, 5), (0, 1)], [(6, 3), (4, 4)]])
    assert play(s2, 0, (4, 5), "root").phase == "play"  # 9 is nothing in All Fives


def test_wrong_claim_refused_and_costs_nothing() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(2, 3), (4, 6)]])
    s = play(s, 0, (5, 5), "root")
    before = s.copy()
    with pytest.raises(IllegalAction, match="claim 10"):
        apply(s, 0, CLAIM(20))
    assert s == before


def _missed() -> object:
    hands = [[(5, 5), (5, 1), (2, 2)], [(2, 3), (4, 6), (6, 6)], [(1, 2), (3, 3)]]
    s = rig("all_fives", hands, stock=[(0, 0), (1, 1), (0, 2), (0, 3)])
    s = play(s, 0, (5, 5), "root")
    return apply(s, 0, CONT)


def test_muggins_taken_before_the_next_tile() -> None:
    s = _missed()
    assert s.phase == "play" and current_seat(s) == 1  # type: ignore[attr-defined]
    assert legal_actions(s, 2) == [MUG]  # type: ignore[arg-type]
    assert MUG in legal_actions(s, 1)  # type: ignore[arg-type]
    assert legal_actions(s, 0) == []  # type: ignore[arg-type]
    s2 = apply(s, 2, MUG)  # type: ignore[arg-type]
    assert s2.scores == (0, 0, 10)
    assert current_seat(s2) == 1
    with pytest.raises(IllegalAction):
        apply(s2, 1, MUG)  # the window is closed


def test_muggins_window_survives_draws_and_passes_but_not_the_next_tile() -> None:
    s = _missed()
    # seat 1 has no 5: it draws one tile and its turn ends
    s = apply(s, 1, DRAW)  # type: ignore[arg-type]
    assert current_seat(s) == 2 and MUG in legal_actions(s, 1)
    assert legal_actions(s, 2) == [DRAW, MUG]
    s = apply(s, 2, DRAW)
    assert MUG in legal_actions(s, 1)
    # seat 0 plays a tile: the window closes
    s = play(s, 0, (5, 1), "left")
    assert MUG not in legal_actions(s, 1) and MUG not in legal_actions(s, 2)
    with pytest.raises(IllegalAction, match="Muggins"):
        apply(s, 2, MUG)


def test_muggins_with_nothing_missed_or_on_own_side() -> None:
    s = rig(
        "all_fives", [[(5, 5), (0, 1)], [(5, 3)], [(4, 6)], [(1, 1)]], partnership=True
    )
    with pytest.raises(IllegalAction, match="nothing|no unclaimed"):
        apply(s, 1, MUG)
    s = apply(play(s, 0, (5, 5), "root"), 0, CONT)
    with pytest.raises(IllegalAction, match="own side"):
        apply(s, 2, MUG)
    assert apply(s, 3, MUG).scores == (0, 10)


def test_unclaimed_points_are_lost_when_the_hand_ends() -> None:
    s = rig("all_fives", [[(5, 0), (5, 5)], [(2, 3), (4, 6)]])
    s = play(s, 0, (5, 5), "root")
    s2 = rig("all_fives", [[(5, 0)], [(2, 3), (4, 6)]])
    s2 = play(s2, 0, (5, 0), "root")  # goes out with 5
    assert s2.phase == "claim"
    s2 = apply(s2, 0, CONT)
    assert s2.phase == "hand_over"
    assert legal_actions(s2, 1) == [Action.next_hand()]
    # bonus: 15 pips of seat 1 rounded; the 5 end points are lost
    assert s2.scores == (15, 0)


def test_all_fives_draws_one_tile_and_its_turn_ends() -> None:
    hands = [[(5, 5), (0, 1)], [(2, 3), (4, 6)]]
    s = rig("all_fives", hands, stock=[(5, 1), (0, 0), (0, 2)])
    s = apply(play(s, 0, (5, 5), "root"), 0, CLAIM(10))
    s = apply(s, 1, DRAW)  # draws 5-1 (playable) but the turn ends
    assert current_seat(s) == 0 and s.hands[1] >> tile_id(1, 5) & 1
    assert len(s.stock) == 2
    assert legal_actions(s, 0) == [PASS]  # only the two reserved tiles remain


def test_all_fives_bonus_rounds_each_contribution() -> None:
    s = rig("all_fives", [[(6, 6)], [(1, 6)], [(0, 3)]])
    s = play(s, 0, (6, 6), "root")  # 12: nothing; goes out
    # 7 -> 5 and 3 -> 5
    assert s.scores == (10, 0, 0)
    s = rig("fives_and_threes", [[(6, 4)], [(1, 6)], [(0, 3)]])
    s = play(s, 0, (6, 4), "root")  # 10: claim then the exact bonus
    s = apply(s, 0, CLAIM(10))
    assert s.scores == (20, 0, 0)


def test_all_fives_blocked_bonus_and_tie() -> None:
    hands = [[(6, 6), (0, 1)], [(6, 4), (2, 2), (0, 0)], [(3, 3), (2, 5)]]
    s = rig("all_fives", hands)
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 4), "left")  # 4 + 12 = 16: nothing; nobody can play
    assert s.phase == "hand_over"
    # totals 1, 4, 13: (4-1)=3 -> 5, (13-1)=12 -> 10
    assert s.scores == (15, 0, 0)


def test_claims_are_kept_and_a_claim_reaching_target_ends_match() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(2, 3), (4, 6)]], scores=(95, 0))
    s = apply(play(s, 0, (5, 5), "root"), 0, CLAIM(10))
    assert s.phase == "match_over" and s.winners == (0,)
    assert s.scores == (105, 0)


def test_muggins_reaching_target_ends_match() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(5, 3), (4, 6)]], scores=(0, 95))
    s = apply(apply(play(s, 0, (5, 5), "root"), 0, CONT), 1, MUG)
    assert s.phase == "match_over" and s.winners == (1,)


# ---------------------------------------------------------------- §3.3 Catalan


def test_catalan_out_takes_opponents_pips() -> None:
    s = rig("catalan", [[(6, 6)], [(1, 2), (0, 4)]])
    s = play(s, 0, (6, 6), "root")
    assert s.scores == (7, 0)


def test_catalan_block_winner_takes_all_pips_including_its_own() -> None:
    hands = [[(6, 6), (1, 0)], [(6, 5), (2, 2)]]
    s = rig("catalan", hands)
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 5), "left")
    assert s.phase == "hand_over"
    assert s.scores == (5, 0)  # 1 + 4, not 4 - 1


def test_catalan_pairs_block_and_tie() -> None:
    hands = [[(6, 6), (1, 0)], [(6, 5), (2, 2)], [(3, 3)], [(0, 0), (4, 4)]]
    s = rig("catalan", hands, tiles_per_seat=5)
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 5), "left")
    assert s.scores == (19, 0)  # 7 + 12
    hands = [[(6, 6), (1, 2)], [(6, 5), (0, 3)]]
    s = rig("catalan", hands)
    s = play(play(s, 0, (6, 6), "root"), 1, (6, 5), "left")
    assert s.scores == (0, 0)


def test_catalan_no_stock_means_pass() -> None:
    s = rig("catalan", [[(6, 6), (1, 2), (6, 1)], [(0, 0), (3, 4)]])
    s = play(s, 0, (6, 6), "root")
    assert legal_actions(s, 1) == [PASS]


# ---------------------------------------------------------------- §3.4 Spider


def test_spider_lone_zero_zero_counts_25() -> None:
    s = rig("spider", [[(1, 1)], [(0, 0)]], forced=(1, 1))
    s = play(s, 0, (1, 1), "root")
    assert s.scores == (0, 25)
    s = rig("spider", [[(1, 1)], [(0, 0), (2, 3)]], forced=(1, 1))
    s = play(s, 0, (1, 1), "root")
    assert s.scores == (0, 5)  # beside another tile 0-0 counts 0


def test_spider_fish_charges_the_loser_its_own_pips() -> None:
    s = rig("spider", [[(1, 1), (2, 3)], [(1, 6), (4, 5)]], forced=(1, 1))
    s = play(s, 0, (1, 1), "root")
    s = play(s, 1, (1, 6), "n")  # ends 6,1,1,1: nobody holds 1 or 6
    assert s.phase == "hand_over" and s.hand_result["reason"] == "blocked"  # type: ignore[index]
    assert s.scores == (0, 9)


def test_spider_reaching_target_loses() -> None:
    s = rig("spider", [[(1, 1)], [(5, 6)]], forced=(1, 1), scores=(0, 95))
    s = play(s, 0, (1, 1), "root")
    assert s.phase == "match_over" and s.winners == (0,)
    assert s.scores == (0, 106)
