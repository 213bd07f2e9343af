"""Options, variant specs, actions, views, events and the bots' helpers."""

from __future__ import annotations

import dataclasses
import json

import pytest

from games.engine import (
    VARIANTS,
    Action,
    IllegalAction,
    InvalidOptions,
    Options,
    action_to_dict,
    apply,
    events_for,
    new_match,
    options_for,
    parse_action,
    public_info,
    view,
)
from tests.support.positions import play, rig


def test_nine_variants_with_their_forms() -> None:
    assert set(VARIANTS) == {
        "block",
        "draw",
        "cross",
        "grand_cross",
        "all_fives",
        "fives_and_threes",
        "fives",
        "catalan",
        "spider",
    }
    for spec in VARIANTS.values():
        d = spec.to_dict()
        json.dumps(d)
        assert d["summary"] and spec.default_target in spec.targets
        o = options_for(spec.id)
        assert Options.from_dict(o.to_dict()) == o
        assert o.to_dict() == dataclasses.asdict(o)  # every field, nothing else
        assert o.to_dict() is not o.to_dict()  # a caller may change its copy
    assert VARIANTS["catalan"].targets == (50, 100, 150)
    assert VARIANTS["spider"].targets == (50, 70, 100, 120)
    assert VARIANTS["block"].targets == (50, 100, 150, 200, 250)
    assert VARIANTS["catalan"].choices["tiles_per_seat"] == (5, 7)
    assert set(VARIANTS["draw"].choices) == {"deal", "opening", "no_double"}


@pytest.mark.parametrize(
    ("variant", "kw", "option"),
    [
        ("spider", {"seats": 3}, "seats"),
        ("all_fives", {"seats": 5}, "seats"),
        ("catalan", {"set_max": 12}, "set_max"),
        ("fives", {"set_max": 9}, "set_max"),
        ("cross", {"seats": 4, "partnership": True}, "partnership"),
        ("block", {"seats": 3, "partnership": True}, "partnership"),
        ("catalan", {"seats": 4, "partnership": False}, "partnership"),
        ("catalan", {"tiles_per_seat": 6}, "tiles_per_seat"),
        ("block", {"target": 70}, "target"),
        ("spider", {"target": 150}, "target"),
        ("block", {"seats": 5, "deal": "002"}, "seats"),
        ("draw", {"seats": 5, "deal": "002"}, "deal"),
        ("all_fives", {"opening": "winner"}, "opening"),
        ("block", {"no_double": "maybe"}, "no_double"),
        ("block", {"colour": "red"}, "colour"),
        ("nope", {}, "variant"),
        ("block", {"seats": "4"}, "seats"),
    ],
)
def test_invalid_options_name_the_option(
    variant: str, kw: dict[str, object], option: str
) -> None:
    with pytest.raises(InvalidOptions) as info:
        options_for(variant, **kw)
    assert info.value.option == option
    assert isinstance(info.value, ValueError) and str(info.value)


def test_tiles_per_seat_picks_the_002_deal() -> None:
    o = options_for("block", seats=4, partnership=True, tiles_per_seat=7)
    assert o.deal == "002" and o.tiles_per_seat == 7


def test_actions_are_hashable_values_and_round_trip() -> None:
    acts = [
        Action.play((5, 3), "left"),
        Action.draw(),
        Action.pass_(),
        Action.claim(15),
        Action.continue_(),
        Action.muggins(),
        Action.close(["n", "e"]),
        Action.play_doubles([((2, 2), "n"), ((3, 3), "e")]),
        Action.next_hand(),
    ]
    assert len(set(acts)) == len(acts)
    assert Action.play((5, 3), "left") == Action.play((3, 5), "left")
    for a in acts:
        d = action_to_dict(a)
        assert parse_action(json.loads(json.dumps(d))) == a


def test_view_hides_other_hands_and_the_stock() -> None:
    s = new_match(options_for("draw", seats=3), 11)
    for seat in (0, 1, 2, None):
        v = view(s, seat)
        text = json.dumps(v)
        assert "seed" not in v and str(s.seed) not in text
        assert v["stock_count"] == len(s.stock)
        if seat is None:
            assert "hand" not in v and v["legal"] == []
        else:
            assert len(v["hand"]) == s.hands[seat].bit_count()
        assert v["hand_result"] is None


def test_view_offers_points_and_shows_claim_window() -> None:
    s = rig("all_fives", [[(5, 5), (0, 1)], [(5, 3), (4, 6)]])
    v = view(s, 0)
    pts = {tuple(d["tile"]): d["points"] for d in v["legal"]}
    assert pts == {(5, 5): 10, (0, 1): 0}
    s = apply(play(s, 0, (5, 5), "root"), 0, Action.continue_())
    v = view(s, 1)
    assert v["claim"] == {
        "kind": "muggins",
        "seat": 0,
        "points": 10,
        "muggins_callable": True,
    }
    assert view(s, 0)["claim"]["muggins_callable"] is False
    assert {"type": "muggins"} in v["legal"]


def test_layout_arms_and_ends() -> None:
    s = rig("draw", [[(6, 6), (6, 1), (2, 3)], [(6, 4), (4, 0)]], stock=[(1, 1)])
    s = play(play(s, 0, (6, 6), "root"), 1, (6, 4), "left")
    s = play(s, 0, (6, 1), "right")
    lay = view(s, 0)["layout"]
    assert lay["root"] == [6, 6]
    assert lay["arms"] == [
        {
            "id": "line",
            "start": [6, 6],
            "tiles": [[4, 6], [6, 6], [6, 1]],
            "ends": ["left", "right"],
        }
    ]
    assert [(e["id"], e["value"], e["arm"]) for e in lay["ends"]] == [
        ("left", 4, "line"),
        ("right", 1, "line"),
    ]


def test_hand_result_reveals_all_hands_with_breakdown() -> None:
    s = rig("block", [[(6, 6)], [(1, 2), (0, 0)], [(5, 5), (4, 3)]])
    s = play(s, 0, (6, 6), "root")
    v = view(s, None)
    hr = v["hand_result"]
    assert hr["reason"] == "out" and hr["out_seat"] == 0
    assert hr["hands"] == [[], [[0, 0], [1, 2]], [[3, 4], [5, 5]]]
    assert hr["points"] == [20, 0, 0]
    kinds = [e["type"] for e in s.events]
    assert kinds == ["played", "hand_over"]


def test_events_show_a_drawn_tile_only_to_the_drawer() -> None:
    s = rig("draw", [[(6, 6), (6, 1)], [(0, 0), (2, 3)]], stock=[(1, 4), (6, 2)])
    s = apply(play(s, 0, (6, 6), "root"), 1, Action.draw())
    assert events_for(s.events, 1)[0]["tile"] == [1, 4]
    assert events_for(s.events, 0)[0]["tile"] is None
    assert events_for(s.events, None)[0]["tile"] is None


def test_public_info_for_bots() -> None:
    s = rig("block", [[(6, 6), (1, 2), (6, 1)], [(0, 0), (3, 4), (6, 0)]])
    s = play(s, 0, (6, 6), "root")
    s = play(s, 1, (6, 0), "left")
    s = play(s, 0, (6, 1), "right")  # ends 0 and 1
    s = play(s, 1, (0, 0), "left")
    info = public_info(view(s, 1))
    assert info["hand_counts"] == [1, 1]
    assert [3, 4] not in info["unseen"] and [6, 6] not in info["unseen"]
    assert [1, 2] in info["unseen"]
    # seat 0 holds 1-2: it can play on the 1, so nothing is known missing
    assert info["missing"][0] == []


def test_public_info_infers_missing_numbers_from_passes() -> None:
    s = rig("block", [[(6, 6), (6, 1), (2, 3)], [(0, 0), (3, 4)]])
    s = apply(play(s, 0, (6, 6), "root"), 1, Action.pass_())
    info = public_info(view(s, 0))
    assert info["missing"][1] == [6]


def test_every_legal_entry_of_a_view_can_be_sent_back_as_is() -> None:
    """The protocol promise: ``legal`` holds exactly what a client may send."""
    s = rig("all_fives", [[(5, 5), (0, 1)], [(5, 3), (4, 6)]])
    for entry in view(s, 0)["legal"]:
        assert "points" in entry
        assert apply(s, 0, entry) != s
    with pytest.raises(IllegalAction, match="Unexpected field"):
        parse_action({"type": "draw", "points": 3})
