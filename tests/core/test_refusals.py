"""core.refusals: one shape for every refusal, in frames, JSON bodies and logs."""

from __future__ import annotations

import pytest

from core.refusals import Refusal
from economy.errors import EconomyError, InvalidAmount
from games.errors import TableError
from leagues.errors import LeagueError
from realtime.frames import FrameError


def test_a_refusal_carries_a_code_and_a_message() -> None:
    err = Refusal("not_your_turn", "It is not your turn.")
    assert (err.code, err.message, err.detail) == (
        "not_your_turn",
        "It is not your turn.",
        "",
    )
    assert str(err) == "It is not your turn."


def test_the_detail_is_for_logs_and_never_in_what_a_player_receives() -> None:
    err = Refusal("no_pot", "There is no such table.", detail="table 42 has no pot")
    assert str(err) == "table 42 has no pot"
    assert "42" not in str(err.as_frame()) and "42" not in str(err.as_json())


def test_the_frame_and_the_json_body() -> None:
    err = Refusal("busy", "The server is busy.")
    assert err.as_frame() == {
        "type": "error",
        "code": "busy",
        "message": "The server is busy.",
    }
    assert err.as_frame(seq=7, retry=2) == {
        "type": "error",
        "code": "busy",
        "message": "The server is busy.",
        "seq": 7,
        "retry": 2,
    }
    assert err.as_json() == {"code": "busy", "message": "The server is busy."}


def test_the_apps_refusals_are_refusals() -> None:
    table = TableError("bad_options", "Unknown option.", field="target")
    assert table.field == "target"
    assert table.as_frame(seq=3)["code"] == "bad_options"
    assert TableError("seat_taken", "That seat is taken.").field is None
    league = LeagueError("no_week", "There is no league week.")
    assert (league.code, league.message) == ("no_week", "There is no league week.")
    for err in (table, league, FrameError("bad_json", "x"), InvalidAmount("x")):
        assert isinstance(err, Refusal)
    with pytest.raises(Refusal):
        raise InvalidAmount("amount must be a positive whole number, not -1")
    assert issubclass(InvalidAmount, ValueError)
    assert issubclass(EconomyError, Refusal)
