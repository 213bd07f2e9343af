"""Every kind of bad action: ``IllegalAction`` with a reason, state unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import (
    Action,
    IllegalAction,
    State,
    apply,
    parse_action,
    to_json,
)
from tests.support.positions import play, rig


def _refused(s: State, seat: Any, action: Any, match: str | None) -> None:
    before = to_json(s)
    with pytest.raises(IllegalAction, match=match) as info:
        apply(s, seat, action)
    assert info.value.reason
    assert to_json(s) == before


def _opened() -> State:
    s = rig("draw", [[(6, 6), (6, 1), (2, 3)], [(6, 4), (0, 0)]], stock=[(1, 1)])
    return play(s, 0, (6, 6), "root")


def test_wrong_seat() -> None:
    _refused(_opened(), 0, Action.play((6, 1), "left"), "not your turn")


def test_no_such_seat() -> None:
    _refused(_opened(), 7, Action.draw(), "no such seat")
    _refused(_opened(), "1", Action.draw(), "no such seat")


def test_tile_not_held() -> None:
    _refused(_opened(), 1, Action.play((6, 5), "left"), "do not hold")


def test_tile_not_in_set() -> None:
    _refused(
        _opened(),
        1,
        {"type": "play", "tile": [6, 9], "end": "left"},
        "no 6\u20139 in the double-6 set",
    )


def test_end_does_not_match() -> None:
    s = play(_opened(), 1, (6, 4), "left")
    _refused(s, 0, Action.play((6, 1), "left"), "does not match")


def test_unknown_end() -> None:
    _refused(_opened(), 1, Action.play((6, 4), "n"), "no such end")


def test_first_tile_must_go_on_root_and_be_the_forced_one() -> None:
    s = rig("draw", [[(6, 6), (6, 1)], [(6, 4), (0, 0)]], forced=(6, 6))
    _refused(s, 0, Action.play((6, 6), "left"), "goes in the middle")
    _refused(s, 0, Action.play((6, 1), "root"), "must open with the double six")


def test_closed_end() -> None:
    hands = [[(1, 1), (2, 2), (4, 5)], [(1, 2), (2, 6), (1, 4), (1, 3)]]
    s = rig("spider", hands, forced=(1, 1))
    s = play(s, 0, (1, 1), "root")
    s = play(s, 1, (1, 2), "n")
    s = play(s, 0, (2, 2), "n")
    s = apply(s, 0, Action.close(["n"]))
    _refused(s, 1, Action.play((2, 6), "n"), "The north arm is closed")


def test_close_an_end_not_just_laid() -> None:
    hands = [[(1, 1), (2, 2), (4, 5)], [(1, 2), (2, 6), (1, 4), (1, 3)]]
    s = rig("spider", hands, forced=(1, 1))
    s = play(play(play(s, 0, (1, 1), "root"), 1, (1, 2), "n"), 0, (2, 2), "n")
    _refused(s, 0, Action.close(["e"]), "only the doubles")
    _refused(s, 0, Action.draw(), "Close some")


def test_play_doubles_outside_spider_and_bad_combos() -> None:
    move = {
        "type": "play_doubles",
        "plays": [{"tile": [1, 1], "end": "left"}, {"tile": [2, 2], "end": "right"}],
    }
    _refused(_opened(), 1, move, "Only Spider")
    hands = [[(1, 1), (2, 2), (3, 3), (4, 5)], [(1, 2), (1, 3), (6, 6), (1, 4)]]
    s = play(rig("spider", hands, forced=(1, 1)), 0, (1, 1), "root")
    s = play(s, 1, (1, 2), "n")
    bad = Action.play_doubles([((2, 2), "n"), ((3, 3), "e")])
    _refused(s, 0, bad, "does not match")
    bad = Action.play_doubles([((2, 2), "n"), ((4, 5), "e")])
    _refused(s, 0, bad, "not a double")


def test_wrong_claim_and_claim_outside_window() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(5, 3), (4, 6)]])
    _refused(s, 0, Action.claim(10), "cannot claim")
    s = play(s, 0, (5, 5), "root")
    _refused(s, 0, Action.claim(5), "claim 10")
    _refused(s, 0, Action.play((0, 1), "left"), "claim it or continue")


def test_muggins_with_nothing_missed() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(5, 3), (4, 6)]])
    s = apply(play(s, 0, (5, 5), "root"), 0, Action.claim(10))
    _refused(s, 1, Action.muggins(), "no unclaimed")


def test_draw_with_a_playable_tile_and_draw_in_block() -> None:
    _refused(_opened(), 1, Action.draw(), "fits")
    s = rig("block", [[(6, 6), (6, 1)], [(6, 4), (0, 0)]])
    s = play(s, 0, (6, 6), "root")
    _refused(s, 1, Action.draw(), "no drawing")


def test_draw_from_empty_or_reserved_stock() -> None:
    s = rig("draw", [[(6, 6), (6, 1)], [(0, 0), (2, 3)]])
    s = play(s, 0, (6, 6), "root")
    _refused(s, 1, Action.draw(), "empty")
    s = rig("all_fives", [[(5, 5), (5, 1)], [(0, 0), (2, 3)]], stock=[(1, 1), (2, 2)])
    s = apply(play(s, 0, (5, 5), "root"), 0, Action.claim(10))
    _refused(s, 1, Action.draw(), "last two")


def test_pass_with_a_legal_play_or_a_drawable_stock() -> None:
    _refused(_opened(), 1, Action.pass_(), "may not pass")
    s = rig("draw", [[(6, 6), (6, 1)], [(0, 0), (2, 3)]], stock=[(1, 2)])
    s = play(s, 0, (6, 6), "root")
    _refused(s, 1, Action.pass_(), "must draw")


def test_next_hand_during_a_hand_and_play_after_it() -> None:
    _refused(_opened(), 1, Action.next_hand(), "still being played")
    s = rig("block", [[(6, 6)], [(6, 4), (0, 0)]])
    s = play(s, 0, (6, 6), "root")
    _refused(s, 1, Action.play((6, 4), "left"), "hand is over")


MALFORMED: list[Any] = [
    None,
    "play",
    42,
    [],
    {},
    {"type": "fly"},
    {"type": 3},
    {"type": "play"},
    {"type": "play", "tile": [1, 2]},
    {"type": "play", "tile": "1-2", "end": "left"},
    {"type": "play", "tile": [1, 2, 3], "end": "left"},
    {"type": "play", "tile": [1, 13], "end": "left"},
    {"type": "play", "tile": [-1, 2], "end": "left"},
    {"type": "play", "tile": [1.0, 2], "end": "left"},
    {"type": "play", "tile": [True, 2], "end": "left"},
    {"type": "play", "tile": [1, 2], "end": 5},
    {"type": "play", "tile": [1, 2], "end": ""},
    {"type": "play", "tile": [1, 2], "end": "left", "extra": 1},
    {"type": "draw", "tile": [1, 2]},
    {"type": "claim"},
    {"type": "claim", "points": "10"},
    {"type": "claim", "points": -5},
    {"type": "claim", "points": True},
    {"type": "close", "ends": []},
    {"type": "close", "ends": "n"},
    {"type": "close", "ends": ["n", "n"]},
    {"type": "play_doubles", "plays": []},
    {"type": "play_doubles", "plays": [{"tile": [1, 1], "end": "n"}]},
    {"type": "play_doubles", "plays": [{"tile": [1, 1]}, {"tile": [2, 2]}]},
    {"type": "play_doubles", "plays": ["x", "y"]},
]


@pytest.mark.parametrize("d", MALFORMED)
def test_malformed_dicts(d: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action(d)
    assert info.value.reason
    _refused(_opened(), 1, d, None)
