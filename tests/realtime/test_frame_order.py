"""Each connection sees each ``seq`` once and in order, whatever order the
layer delivers them in (two commits of one table can reach it either way round)."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.groups import seat_subject, table_group
from realtime import consumers as base
from realtime.outbox import FRAMES_TYPE
from tests.support import session_cookie, tables

pytestmark = pytest.mark.django_db(transaction=True)


async def seated(make_user):
    # A seated player's socket: a spectator's only hears of changes to what it is
    # shown, numbered its own way (games.consumers).
    table, ana, _ = await database_sync_to_async(tables.two_human_table)(
        make_user, mode="online"
    )
    cookie = (await database_sync_to_async(session_cookie)(ana)).encode()
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    assert (await comm.connect(timeout=10))[0]
    first = await comm.receive_json_from(timeout=10)
    assert first["type"] == "state" and first["you"] == 0
    return table, comm, first["seq"]


async def push(table_id: int, seq: int) -> None:
    text = json.dumps({"type": "state", "seq": seq, "events": []})
    await get_channel_layer().group_send(
        table_group(table_id),
        {"type": FRAMES_TYPE, "seq": seq, "texts": {seat_subject(0): text}},
    )


async def seqs(comm, count: int) -> list[int]:
    return [(await comm.receive_json_from(timeout=5))["seq"] for _ in range(count)]


async def test_a_frame_that_overtook_its_predecessor_waits_for_it(make_user):
    table, comm, seq = await seated(make_user)
    await push(table.pk, seq + 2)
    await push(table.pk, seq + 1)
    await push(table.pk, seq + 1)  # a repeat
    await push(table.pk, seq)  # older than what the connection has
    await push(table.pk, seq + 3)
    assert await seqs(comm, 3) == [seq + 1, seq + 2, seq + 3]
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


async def test_a_frame_that_never_comes_is_given_up_after_a_moment(make_user):
    table, comm, seq = await seated(make_user)
    start = time.monotonic()
    await push(table.pk, seq + 3)
    await push(table.pk, seq + 2)
    assert await seqs(comm, 2) == [seq + 2, seq + 3]  # the client sees the gap
    assert time.monotonic() - start >= base.GAP_WAIT * 0.9
    await push(table.pk, seq + 4)  # and carries on in order
    assert await seqs(comm, 1) == [seq + 4]
    await comm.disconnect()
