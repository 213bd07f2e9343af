"""No frame sent to a seat or to spectators holds another seat's tiles or the stock,
before the hand ends: every variant, many full hands. The same for the patches a
socket sends instead of its next state (``games.consumers``): each one, applied to
the frame before it, gives exactly the full frame."""

from __future__ import annotations

import json
import random

import pytest

from games import engine
from games.engine import tiles as engine_tiles
from games.models import Table
from games.patches import frame_patch, frame_patched
from games.services import table_practice_create
from games.spectators import watched_mark
from realtime.deltas import SPLICE
from tests.support.tables import drive

pytestmark = pytest.mark.django_db(transaction=True)

TILE_KEYS = {"tile", "tiles", "hand", "hands", "start", "root", "plays", "dealt"}

CONFIGS = [
    ("block", {"seats": 2}),
    ("block", {"seats": 4, "partnership": True, "set_max": 9}),
    ("draw", {"seats": 3}),
    ("cross", {"seats": 4}),
    ("grand_cross", {"seats": 3, "set_max": 9}),
    ("all_fives", {"seats": 2}),
    ("fives_and_threes", {"seats": 4, "partnership": True}),
    ("fives", {"seats": 3}),
    ("catalan", {"seats": 4}),
    ("spider", {"seats": 2}),
]


def tiles_named(obj, under_tile_key=False):
    """Every [a, b] pair found under a tile-bearing key, anywhere in a frame."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from tiles_named(value, under_tile_key or key in TILE_KEYS)
    elif isinstance(obj, list):
        if (
            under_tile_key
            and len(obj) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in obj)
        ):
            yield tuple(sorted(obj))
        else:
            for item in obj:
                yield from tiles_named(item, under_tile_key)


def tiles_carried(changes, under_tile_key=False):
    """Every tile a patch's changes carry (``realtime.deltas``): the values put in,
    not a splice's numbers or an element's index."""
    if isinstance(changes, list):  # a replacement, or a removal
        for value in changes:
            yield from tiles_named(value, under_tile_key)
    elif isinstance(changes, dict):
        if list(changes) == [SPLICE]:
            for value in changes[SPLICE][2:]:
                yield from tiles_named(value, under_tile_key)
            return
        for key, change in changes.items():
            yield from tiles_carried(change, under_tile_key or key in TILE_KEYS)


def canonical(frame: dict) -> str:
    """A frame as text, key order aside: ``true`` and ``1`` differ."""
    return json.dumps(frame, sort_keys=True)


def hidden_from(state_json: dict, position: int | None) -> set[tuple[int, int]]:
    hidden = set()
    for seat, mask in enumerate(state_json["hands"]):
        if seat != position:
            hidden |= {tuple(sorted(p)) for p in engine_tiles.tile_pairs(mask)}
    for tile_id in state_json["stock"] or []:
        hidden.add(tuple(sorted(engine_tiles.PAIRS[tile_id])))
    return hidden


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_no_frame_leaks_hidden_tiles(make_user, queued, monkeypatch, variant, options):
    from games.services import transitions

    checked = {"frames": 0, "hands": 0, "spectators": 0, "patches": 0}
    last_sent: dict[str, dict] = {}  # each group's last frame: the next patch's base

    def check(table, seats, state, events, spectated=None, watchers=True):
        messages = real_push(
            table=table,
            seats=seats,
            state=state,
            events=events,
            spectated=spectated,
            watchers=watchers,
        )
        for group, message in messages:
            text = json.dumps(message)  # what the outbox sends
            frame = json.loads(text)
            base, last_sent[group] = last_sent.get(group), frame
            patch = None
            if base is not None:
                patch_text = json.dumps(frame_patch(base, frame))
                patch = json.loads(patch_text)
                assert canonical(frame_patched(base, patch)) == canonical(frame)
                assert str(table.seed) not in patch_text
                checked["patches"] += 1
            position = frame["you"]
            assert group.endswith("watch") == (position is None)
            # Spectators are shown the game behind (games.spectators): check what
            # they are shown against the state it comes from.
            shown = spectated[0] if position is None and spectated else state
            state_json = engine.to_json(shown)
            view = frame["view"]
            if position is None:
                assert "hand" not in view
            assert "public_state" not in view  # the page never needs it
            ps = engine.view(shown, position)["public_state"]
            assert all(h is None for i, h in enumerate(ps["hands"]) if i != position), (
                "another seat's hand in public_state"
            )
            assert ps.get("stock") is None
            assert str(table.seed) not in text
            if shown.phase in {"hand_over", "match_over"}:
                continue  # every hand is revealed once the hand has ended
            hidden = hidden_from(state_json, position)
            leaked = set(tiles_named(frame)) & hidden
            assert not leaked, f"seat {position} saw {leaked} in {variant}"
            checked["frames"] += 1
            checked["spectators"] += position is None
            if patch is not None:
                carried = set(tiles_carried(patch["changes"]))
                carried |= set(tiles_named(patch["events"]))
                assert not carried & hidden, f"seat {position}'s patch leaked"
        if state.phase in {"hand_over", "match_over"}:
            checked["hands"] += 1
        return messages

    real_push = transitions.table_frames
    monkeypatch.setattr(transitions, "table_frames", check)
    user = make_user()
    seats = options["seats"]
    table = table_practice_create(
        user=user,
        variant=variant,
        options={**options, "target": 100},
        bot_levels=["easy"] * (seats - 1),
        bot_speed="instant",
    )
    watched_mark(table.pk)  # spectators' frames go out too
    table = drive(table.pk, {0: user}, rng=random.Random(11))
    assert table.status == Table.Status.FINISHED
    assert checked["frames"] > 20
    assert checked["spectators"] > 10
    assert checked["hands"] >= 1
    assert checked["patches"] > 20
