"""The offline game: the deal of RULES.md §1.1, moves, computer players, the frame
TableUI draws, the copy kept in the browser and the server's replay of an upload."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
from typing import Any

import pytest

from games import engine, offline
from games.engine import fair
from games.engine.tiles import PAIRS, bits
from tests.offline.play import SEED, every_variant, person_action, play_out


def hand_tiles(state: engine.State, seat: int) -> list[tuple[int, int]]:
    return sorted(PAIRS[t] for t in bits(state.hands[seat]))


@pytest.fixture(scope="module")
def finished() -> dict[str, offline.Game]:
    """One whole match per case of ``every_variant``, keyed by case."""
    out = {}
    for variant, options, levels in every_variant():
        key = f"{variant}-{json.dumps(options, sort_keys=True)}"
        out[key] = play_out(offline.new_game(variant, options, levels, SEED))
    return out


# ---------------------------------------------------------------- the deal


def test_hand_one_is_dealt_by_the_fair_deal_of_its_seed() -> None:
    game = offline.new_game("draw", {"seats": 3}, ["easy", "medium"], SEED)
    deal = fair.FairDeal(table_id=0, chains=(bytes.fromhex(SEED),), seeds=("", "", ""))
    hands, stock = fair.deal(deal, set_max=6, seats=3, per_seat=5, hand=1, redeal=0)
    assert [hand_tiles(game.state, s) for s in range(3)] == [sorted(h) for h in hands]
    assert [PAIRS[t] for t in game.state.stock] == stock


def test_another_seed_deals_otherwise_and_the_same_seed_the_same() -> None:
    one = offline.new_game("block", {}, ["medium"], SEED)
    again = offline.new_game("block", {}, ["medium"], SEED)
    other = offline.new_game("block", {}, ["medium"], offline.seed_new())
    assert one.state == again.state
    assert hand_tiles(one.state, 0) != hand_tiles(other.state, 0)


def test_later_chains_are_keyed_from_the_seed() -> None:
    top = bytes.fromhex(SEED)
    expected = hmac.new(top, b"offline-chain|1", hashlib.sha256).digest()
    assert offline.chain_top(SEED, 0) == top
    assert offline.chain_top(SEED, 1) == expected
    game = offline.new_game("block", {}, ["easy"], SEED)
    assert game.state.fair is not None and len(game.state.fair.chains) == 1
    # The last hand of the first chain: the next chain is added before it is needed.
    last = game.state.copy()
    last.hand_no = fair.CHAIN_LENGTH
    extended = offline.game._chain_ahead(last, SEED)
    assert extended.fair is not None
    assert extended.fair.chains == (top, expected)
    assert extended.fair.has_key(fair.CHAIN_LENGTH + 1)


@pytest.mark.parametrize(
    ("variant", "options", "levels", "seed"),
    [
        ("nope", {}, ["easy"], SEED),
        ("block", {"seats": 9}, ["easy"] * 8, SEED),
        ("block", {"colour": "red"}, ["easy"], SEED),
        ("block", {"variant": "draw"}, ["easy"], SEED),
        ("block", [], ["easy"], SEED),
        ("block", {}, ["easy", "easy"], SEED),
        ("block", {}, ["genius"], SEED),
        ("block", {}, "easy", SEED),
        ("block", {}, ["easy"], SEED.upper()),
        ("block", {}, ["easy"], SEED[:-2]),
        ("block", {}, ["easy"], 12345),
    ],
)
def test_a_bad_new_game_is_refused_in_words(
    variant: Any, options: Any, levels: Any, seed: Any
) -> None:
    with pytest.raises(offline.OfflineError) as refused:
        offline.new_game(variant, options, levels, seed)
    said = refused.value.message.render()
    assert said and "Error" not in said and "{" not in said and "[" not in said


# ---------------------------------------------------------------- moves


def test_the_person_acts_only_in_turn_and_a_refusal_changes_nothing() -> None:
    game = offline.new_game("draw", {}, ["medium"], SEED)
    while offline.computer_turn(game) is not None:
        game = offline.computer_move(game, 1)
    before = offline.game_to_json(game)
    with pytest.raises(offline.OfflineError) as refused:
        offline.act(game, 0, {"type": "play", "tile": [9, 9], "end": "left"})
    assert "double nine" in refused.value.message.render()
    with pytest.raises(offline.OfflineError):
        offline.act(game, 0, {"type": "dance"})
    with pytest.raises(offline.OfflineError) as wait:
        offline.act(game, 1, engine.legal_actions(game.state, 0)[0])
    assert wait.value.message.render() == "Wait for the computer players."
    with pytest.raises(offline.OfflineError):
        offline.act(game, 5, {"type": "pass"})
    assert offline.game_to_json(game) == before
    legal = engine.legal_actions(game.state, 0)[0]
    moved = offline.act(game, 0, engine.action_to_dict(legal))
    assert moved.log == (*game.log, (0, engine.action_to_dict(legal)))
    assert offline.game_to_json(game) == before


def test_the_computer_moves_as_its_bot_decides() -> None:
    game = offline.new_game("all_fives", {}, ["medium"], SEED)
    if offline.computer_turn(game) is None:
        game = offline.act(game, 0, person_action(game, random.Random(3)))
    seat = offline.computer_turn(game)
    assert seat == 1
    moved = offline.computer_move(game, seat)
    again = offline.computer_move(game, seat)
    assert moved.log == again.log and len(moved.log) == len(game.log) + 1
    assert moved.log[-1][0] == 1
    with pytest.raises(offline.OfflineError):
        offline.computer_move(game, 0)


def test_a_match_plays_to_its_end_in_every_variant(
    finished: dict[str, offline.Game],
) -> None:
    for key, game in finished.items():
        assert engine.is_match_over(game.state), key
        assert game.state.winners, key
        assert offline.computer_turn(game) is None, key


# ---------------------------------------------------------------- shown and kept


def test_the_frame_is_the_practice_tables_frame_for_seat_zero() -> None:
    game = offline.new_game("fives", {"seats": 3}, ["easy", "hard"], SEED)
    frame = offline.state_frame(game)
    assert set(frame) == {"type", "seq", "table", "seats", "you", "view", "events"}
    assert frame["type"] == "state" and frame["you"] == 0 and frame["seq"] == 0
    assert (
        frame["table"]["mode"] == "practice" and frame["table"]["status"] == "playing"
    )
    assert [s["bot"] for s in frame["seats"]] == [None, "easy", "hard"]
    view = frame["view"]
    assert "public_state" not in view
    assert sorted(tuple(t) for t in view["hand"]) == hand_tiles(game.state, 0)
    assert view == {
        k: v for k, v in engine.view(game.state, 0).items() if k != "public_state"
    }
    assert json.loads(json.dumps(frame)) == frame


def test_the_frame_shows_no_other_seats_tiles() -> None:
    game = offline.new_game("block", {}, ["easy"], SEED)
    frame = offline.state_frame(game)
    mine = {tuple(t) for t in frame["view"]["hand"]}
    shown = {tuple(t) for t in _tiles_in(frame)}
    assert shown == mine


def _tiles_in(value: Any, key: str = "") -> list[list[int]]:
    """Every tile anywhere in a JSON value: a list of [a, b] pairs, or the [a, b]
    under a "tile" key (not a pair of counts or scores)."""

    def pair(v: Any) -> bool:
        return isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v)

    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _tiles_in(v, k)]
    if isinstance(value, list):
        if key == "tile" and pair(value):
            return [value]
        if value and all(pair(v) for v in value):
            return list(value)
        return [t for v in value for t in _tiles_in(v)]
    return []


def test_the_game_round_trips_through_json() -> None:
    game = play_out(offline.new_game("fives", {}, ["medium"], SEED), limit=25)
    kept = json.loads(json.dumps(offline.game_to_json(game)))
    back = offline.game_from_json(kept)
    assert back == game
    assert offline.state_frame(back) == offline.state_frame(game)
    with pytest.raises(ValueError):
        offline.game_from_json({"version": 1, "variant": "block"})


# ---------------------------------------------------------------- the replay


def test_the_replay_of_a_finished_game_gives_its_result(
    finished: dict[str, offline.Game],
) -> None:
    for key, game in finished.items():
        upload = json.loads(json.dumps(offline.upload_of(game)))
        result = offline.replay(upload)
        assert result.state == game.state, key
        assert result.winners == tuple(game.state.winners), key
        assert result.won == (0 in game.state.winners), key
        assert result.actions == len(game.log) and result.hands == game.state.hand_no
        assert result.levels == game.levels and result.seed == SEED
        assert [(seat, action) for seat, action, _ in result.steps] == list(game.log)
        assert result.steps[-1][2] == game.state.events
        assert result.dealt and result.dealt[0]["type"] == "hand_started"


def _upload(finished: dict[str, offline.Game], variant: str) -> dict[str, Any]:
    game = next(g for k, g in finished.items() if k.startswith(f"{variant}-"))
    return copy.deepcopy(offline.upload_of(game))


def _refused(upload: Any) -> str:
    with pytest.raises(offline.OfflineError) as refused:
        offline.replay(upload)
    said = refused.value.message.render()
    assert said and "Traceback" not in said and "{'" not in said
    return said


def test_an_unfinished_game_is_refused(finished: dict[str, offline.Game]) -> None:
    upload = _upload(finished, "block")
    upload["actions"] = upload["actions"][:-1]
    assert _refused(upload) == "The game is not finished."


def test_moves_after_the_end_are_refused(finished: dict[str, offline.Game]) -> None:
    upload = _upload(finished, "block")
    upload["actions"].append([0, {"type": "next_hand"}])
    assert _refused(upload) == "The game goes on after its end."


def test_an_illegal_move_is_refused_and_named(
    finished: dict[str, offline.Game],
) -> None:
    upload = _upload(finished, "draw")
    first = next(i for i, (seat, _) in enumerate(upload["actions"]) if seat == 0)
    upload["actions"][first] = [0, {"type": "play", "tile": [6, 6], "end": "nowhere"}]
    assert _refused(upload).startswith(f"Move {first + 1} is not")


def test_a_forged_computer_move_is_refused(finished: dict[str, offline.Game]) -> None:
    upload = _upload(finished, "block")  # one medium computer
    game = offline.new_game("block", upload["options"], upload["levels"], SEED)
    for number, (seat, action) in enumerate(upload["actions"], start=1):
        legal = engine.legal_actions(game.state, seat)
        others = [a for a in legal if engine.action_to_dict(a) != action]
        if seat == 1 and others:
            upload["actions"][number - 1] = [1, engine.action_to_dict(others[0])]
            said = _refused(upload)
            assert said == f"Move {number} is not the computer player's."
            return
        game = offline.act(game, seat, action)
    pytest.fail("the computer never had a choice")


def test_the_person_moving_for_the_computer_is_refused(
    finished: dict[str, offline.Game],
) -> None:
    upload = _upload(finished, "draw")
    number = next(i for i, (seat, _) in enumerate(upload["actions"]) if seat == 1)
    upload["actions"][number][0] = 0
    assert _refused(upload) == f"Move {number + 1} was not that player's to make."


def test_another_seed_does_not_replay(finished: dict[str, offline.Game]) -> None:
    upload = _upload(finished, "draw")
    upload["seed"] = "0" * 64
    assert _refused(upload).startswith("Move ")


@pytest.mark.parametrize(
    "change",
    [
        lambda u: u.update(actions="[]"),
        lambda u: u.update(actions={"0": 1}),
        lambda u: u.update(actions=[[0]] + u["actions"]),
        lambda u: u.update(actions=[["0", {"type": "pass"}]] + u["actions"]),
        lambda u: u.update(actions=[[0, "pass"]] + u["actions"]),
        lambda u: u.update(actions=[[True, {"type": "pass"}]] + u["actions"]),
        lambda u: u.update(levels=["impossible"]),
        lambda u: u.update(levels=None),
        lambda u: u.update(variant=None),
        lambda u: u.update(options={"target": 7}),
        lambda u: u.update(seed=None),
        lambda u: u.pop("actions"),
    ],
)
def test_a_malformed_upload_is_refused_in_words(
    finished: dict[str, offline.Game], change: Any
) -> None:
    upload = _upload(finished, "block")
    change(upload)
    _refused(upload)


def test_an_oversized_log_is_refused_before_it_is_played() -> None:
    upload = {
        "variant": "block",
        "options": {},
        "levels": ["easy"],
        "seed": SEED,
        "actions": [[0, {"type": "pass"}]] * (offline.MAX_ACTIONS + 1),
    }
    assert _refused(upload) == (
        f"The game is too long: at most {offline.MAX_ACTIONS} moves."
    )
    _refused([1, 2, 3])


def test_matches_stay_well_inside_the_bounds(
    finished: dict[str, offline.Game],
) -> None:
    for key, game in finished.items():
        assert len(game.log) < offline.MAX_ACTIONS // 4, key
        assert game.state.hand_no < offline.MAX_HANDS // 4, key
