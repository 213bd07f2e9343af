"""``apply`` checks ``Action`` objects built in-process as strictly as wire dicts.

An ``Action`` is a plain named tuple: any code may build one with any values. Every
malformed field must end in ``IllegalAction`` with a reason and the state untouched,
never in another exception or a move the rules did not offer.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Action,
    IllegalAction,
    State,
    apply,
    current_seat,
    is_match_over,
    legal_actions,
    new_match,
    options_for,
    parse_action,
    to_json,
)
from games.engine.actions import (
    CLAIM,
    CLOSE,
    KINDS,
    PLAY,
    PLAY_DOUBLES,
)
from games.engine.options import options_every
from tests.support.positions import play, rig

CONFIGS = options_every()
FIELDS = ("type", "tile", "end", "points", "ends", "plays")


def _refused(s: State, seat: int, action: Any) -> IllegalAction:
    before = to_json(s)
    with pytest.raises(IllegalAction) as info:
        apply(s, seat, action)
    assert info.value.reason
    assert to_json(s) == before
    return info.value


# --- the cases of the issue


def test_negative_half_is_not_another_tile() -> None:
    """(-1, 3) has the tile id of 2-2, which seat 1 holds and which fits."""
    s = rig("draw", [[(2, 6), (1, 1)], [(2, 2), (0, 1)]], stock=[(1, 2)], forced=(2, 6))
    s = play(s, 0, (2, 6), "root")
    err = _refused(s, 1, Action.play((-1, 3), "left"))
    assert "halves go from 0 to" in err.reason


def test_close_nothing_is_continue_not_an_empty_close() -> None:
    hands = [[(1, 1), (2, 2), (4, 5)], [(1, 2), (2, 6), (1, 4), (1, 3)]]
    s = rig("spider", hands, forced=(1, 1))
    s = play(play(play(s, 0, (1, 1), "root"), 1, (1, 2), "n"), 0, (2, 2), "n")
    assert s.phase == "close"
    err = _refused(s, 0, Action.close([]))
    assert "one or more ends" in err.reason


@pytest.mark.parametrize(
    "tile", [None, 3, 2.0, (1.0, 2), (1, 2, 3), (True, 2), ("1", "2"), (1, 13)]
)
def test_malformed_tile(tile: Any) -> None:
    s = new_match(options_for("block"), 3)
    seat = current_seat(s)
    assert seat is not None
    _refused(s, seat, Action(PLAY, tile, "root"))


def test_field_of_another_kind() -> None:
    s = new_match(options_for("block"), 3)
    seat = current_seat(s)
    assert seat is not None
    legal = legal_actions(s, seat)[0]
    err = _refused(s, seat, legal._replace(points=4))
    assert "Unexpected field" in err.reason


def test_wire_dict_and_canonical_action_still_apply() -> None:
    s = new_match(options_for("block"), 3)
    seat = current_seat(s)
    assert seat is not None
    legal = legal_actions(s, seat)[0]
    assert legal.tile is not None
    lo, hi = legal.tile
    flipped = Action(PLAY, (hi, lo), legal.end)
    assert apply(s, seat, flipped) == apply(s, seat, legal)
    assert parse_action(flipped) == legal


# --- the property: a bad value in any field is refused, whatever the position

_junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.lists(st.integers(-3, 15), max_size=4),
    st.tuples(st.integers(-3, 15), st.integers(-3, 15), st.integers(-3, 15)),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
_bad_half = st.one_of(
    st.integers(-(10**6), -1),
    st.integers(13, 10**6),
    st.booleans(),
    st.floats(),
    st.none(),
    st.text(max_size=3),
)
_bad_tile = st.one_of(
    st.none(),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.tuples(_bad_half, st.integers(0, 12)),
    st.tuples(st.integers(0, 12), _bad_half),
    st.lists(st.integers(0, 12), max_size=1),
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12)),
)
_bad_end = st.one_of(
    st.none(),
    st.just(""),
    st.text(min_size=33, max_size=40),
    st.integers(),
    st.floats(),
    st.lists(st.text(max_size=3), max_size=2),
    st.tuples(st.text(max_size=3)),
)


def _bad_value(kind: str, field: str) -> st.SearchStrategy[Any]:
    """Values of ``field`` that no action of type ``kind`` may carry."""
    if field == "type":
        return _junk.filter(lambda v: v not in KINDS)
    carried = {
        PLAY: ("tile", "end"),
        CLAIM: ("points",),
        CLOSE: ("ends",),
        PLAY_DOUBLES: ("plays",),
    }.get(kind, ())
    if field not in carried:
        default = Action._field_defaults[field]
        return _junk.filter(lambda v: not (v is default or v == () == default))
    if field == "tile":
        return _bad_tile
    if field == "end":
        return _bad_end
    if field == "points":
        return st.one_of(
            st.integers(max_value=0),
            st.integers(min_value=10_000),
            st.booleans(),
            st.floats(),
            st.none(),
            st.text(max_size=3),
        )
    if field == "ends":
        return st.one_of(
            st.just(()),
            st.just([]),
            st.none(),
            st.text(min_size=1, max_size=4),
            st.tuples(_bad_end),
            st.tuples(st.just("n"), st.just("n")),
            st.lists(st.just("n"), min_size=9, max_size=10),
        )
    return st.one_of(
        st.just(()),
        st.none(),
        st.text(max_size=4),
        st.tuples(st.tuples(st.tuples(st.just(1), st.just(1)), st.just("n"))),
        st.tuples(
            st.tuples(_bad_tile, st.just("n")), st.tuples((st.just((2, 2))), _bad_end)
        ),
        st.lists(st.tuples(st.just((1, 1)), st.just("n")), min_size=9, max_size=9),
        st.tuples(_junk, _junk),
    )


def _position(config: int, seed: int, steps: int) -> State:
    """A position reached by random legal play (one hand may end, not the match)."""
    s = new_match(CONFIGS[config % len(CONFIGS)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if is_match_over(s):
            break
        seat = current_seat(s)
        seat = rng.randrange(s.options.seats) if seat is None else seat
        s = apply(s, seat, rng.choice(legal_actions(s, seat)))
    return s


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.integers(0, 10_000),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    data=st.data(),
)
def test_bad_field_of_a_legal_action_is_refused(
    config: int, seed: int, steps: int, data: st.DataObject
) -> None:
    s = _position(config, seed, steps)
    if is_match_over(s):
        return
    seat = current_seat(s)
    seat = 0 if seat is None else seat
    legal = data.draw(st.sampled_from(legal_actions(s, seat)))
    field = data.draw(st.sampled_from(FIELDS))
    bad = data.draw(_bad_value(legal.type, field))
    _refused(s, seat, legal._replace(**{field: bad}))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.integers(0, 10_000),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    seat=st.integers(-1, 5),
    fields=st.tuples(
        st.one_of(st.sampled_from(KINDS), _junk),
        st.one_of(st.tuples(st.integers(-1, 13), st.integers(-1, 13)), _bad_tile),
        st.one_of(st.sampled_from(["root", "left", "right", "n", "e"]), _bad_end),
        st.one_of(st.none(), st.integers(-2, 40), _junk),
        st.one_of(st.just(()), st.lists(st.sampled_from(["n", "e", "s"])), _junk),
        st.one_of(st.just(()), _junk),
    ),
)
def test_any_hand_built_action_is_legal_or_refused(
    config: int, seed: int, steps: int, seat: int, fields: tuple[Any, ...]
) -> None:
    """Whatever ``Action(...)`` holds, ``apply`` makes a legal move or refuses."""
    s = _position(config, seed, steps)
    action = Action(*fields)
    before = to_json(s)
    try:
        apply(s, seat, action)
    except IllegalAction as err:
        assert err.reason
    else:
        assert parse_action(action) in legal_actions(s, seat)
    assert to_json(s) == before
