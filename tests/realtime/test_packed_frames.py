"""A commit's frames leave in one channel-layer message to the table's group, and
each connection takes only its own subject's frame (``realtime.outbox``)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.groups import WATCH_SUBJECT, seat_subject, table_group
from realtime import outbox
from tests.games.test_table_socket import Player
from tests.support import tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_post_is_one_message_holding_each_subjects_text_once():
    item = outbox.Post(
        seq=7,
        group="table.3",
        frames=[("seat.0", {"hand": [1]}), ("seat.1", {"hand": [2]}), ("watch", {})],
    )
    [(group, message)] = outbox.messages_of(item)
    assert group == "table.3"
    assert message["type"] == outbox.FRAMES_TYPE and message["seq"] == 7
    assert {k: json.loads(v) for k, v in message["texts"].items()} == {
        "seat.0": {"hand": [1]},
        "seat.1": {"hand": [2]},
        "watch": {},
    }
    assert outbox.frames_in(message) == 3
    # A post of a job alone sends nothing.
    assert outbox.messages_of(outbox.Post(seq=7, group="table.3", frames=())) == []


async def test_a_move_reaches_every_connection_in_one_message_and_each_its_own(
    make_user, monkeypatch
):
    table, ana, ben = await database_sync_to_async(tables.two_human_table)(
        make_user, mode="online", target=50
    )
    carl = await database_sync_to_async(make_user)("carl")
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    watcher = await Player.join(table.pk, carl)
    for player in (a, b, watcher):
        await player.drain()  # the counts of spectators
    layer = get_channel_layer()
    sent: list[tuple[str, dict]] = []
    group_send = layer.group_send

    async def recording(group, message):
        sent.append((group, message))
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", recording)
    mover = a if a.state["view"]["legal"] else b
    seq = mover.state["seq"]
    await mover.act(mover.state["view"]["legal"][0])
    for player in (a, b):
        await player.wait_state(seq + 1)
    await watcher.drain()
    [(group, message)] = sent
    assert group == table_group(table.pk)
    assert set(message["texts"]) == {seat_subject(0), seat_subject(1), WATCH_SUBJECT}
    # Each seat's connection took its own text: its own hand, once.
    for position, player in ((0, a), (1, b)):
        mine = json.loads(message["texts"][seat_subject(position)])
        assert player.state["view"]["hand"] == mine["view"]["hand"]
        assert player.state["you"] == position
        states = [f["seq"] for f in player.frames if f["type"] == "state"]
        assert len(states) == len(set(states))
    # The spectators' text is the only one a spectator's connection takes.
    assert all("hand" not in f["view"] for f in watcher.frames if f["type"] == "state")
    for player in (a, b, watcher):
        assert await player.comm.receive_nothing(timeout=0.2)
        await player.comm.disconnect()
