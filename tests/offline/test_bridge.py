"""games.offline.bridge, what the browser's worker calls: JSON text in and out, the
game handed over as text (its integers exceed JavaScript's), refusals as codes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from games import engine, offline
from games.offline import bridge
from tests.offline.play import SEED


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    bridge._reset()
    yield
    bridge._reset()


def call(name: str, **args: Any) -> dict[str, Any]:
    answer = json.loads(getattr(bridge, name)(json.dumps(args)))
    assert isinstance(answer, dict)
    return answer


def test_a_game_starts_moves_and_resumes_from_its_text() -> None:
    options = {"set_max": 12, "seats": 3, "target": 50}
    answer = call(
        "start", variant="draw", options=options, levels=["easy", "medium"], seed=SEED
    )
    game = offline.new_game("draw", options, ["easy", "medium"], SEED)
    assert answer["frame"] == offline.state_frame(game)
    assert answer["computer"] == offline.computer_turn(game)
    assert answer["over"] is False
    kept = answer["game"]
    assert isinstance(kept, str)
    # A double-twelve hand is a bit set beyond 2**53: only text keeps it exact.
    assert max(json.loads(kept)["state"]["hands"]) > 2**53
    for _ in range(6):
        if answer["computer"] is not None:
            answer = call("computer", seat=answer["computer"])
        else:
            legal = answer["frame"]["view"]["legal"][0]
            legal.pop("points", None)
            answer = call("act", seat=0, action=legal)
    bridge._reset()
    again = call("resume", game=answer["game"])
    assert again["game"] == answer["game"]
    assert again["frame"] == answer["frame"]


def test_refusals_are_codes() -> None:
    answer = call("start", variant="block", options={}, levels=["genius"], seed=SEED)
    assert answer["refused"] == "options"
    answer = call("start", variant="block", options={}, levels=["medium"], seed=SEED)
    while answer["computer"] is None:
        legal = answer["frame"]["view"]["legal"][0]
        answer = call("act", seat=0, action=legal)
    assert call("act", seat=0, action={"type": "pass"})["refused"] == "wait"
    answer = call("computer", seat=1)
    while answer["computer"] is not None:
        answer = call("computer", seat=answer["computer"])
    bad = call("act", seat=0, action={"type": "play", "tile": [6, 6], "end": "nowhere"})
    assert bad["refused"] == "illegal"


def test_states_follow_a_log_as_text() -> None:
    game = offline.new_game("fives", {}, ["medium"], SEED)
    for _ in range(5):
        seat = offline.computer_turn(game)
        if seat is not None:
            game = offline.computer_move(game, seat)
        else:
            legal = engine.legal_actions(game.state, 0)[0]
            game = offline.act(game, 0, engine.action_to_dict(legal))
    text = json.loads(
        bridge.states(
            json.dumps(
                {
                    "variant": "fives",
                    "options": {},
                    "levels": ["medium"],
                    "seed": SEED,
                    "actions": [list(entry) for entry in game.log],
                }
            )
        )
    )
    states = json.loads(text)
    assert len(states) == len(game.log) + 1
    assert engine.from_json(states[-1]) == game.state


def test_the_machine_speed_is_read_once_and_positive() -> None:
    first = bridge.machine_speed()
    assert bridge.SPEED_FLOOR <= first <= 4.0
    assert bridge.machine_speed() == first
