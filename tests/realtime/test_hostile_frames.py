"""Frames meant to break a table socket: each gets a clear error or close code,
nothing is logged as a traceback, and the seat's presence is right after."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import consumers as table_consumers
from games.models import Seat
from realtime import consumers as base
from tests.support import session_cookie, tables

pytestmark = pytest.mark.django_db(transaction=True)

NESTED = '{"type": "act", "seq": 1, "action": ' + "[" * 1000 + "]" * 1000 + "}"
HUGE = json.dumps({"type": "sync", "pad": "x" * (1100 * 1024)})  # 1.1 MiB


async def join(table_id: int, user) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    return comm


async def next_of(comm: WebsocketCommunicator, kind: str) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame


async def connected_flag(table_id: int, position: int) -> bool:
    """Whether the seat counts as connected with no socket closing: a closed last
    socket marks it ``offline_at`` (it goes offline after its grace)."""

    def read() -> bool:
        seat = Seat.objects.get(table_id=table_id, position=position)
        return seat.connected and seat.offline_at is None

    return await database_sync_to_async(read)()


def tracebacks(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info]


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"text_data": NESTED}, "bad_frame"),
        ({"text_data": HUGE}, "too_large"),
        ({"bytes_data": b"\x00\xff" * 100}, "bad_frame"),
        (
            {"text_data": '{"type": "act", "seq": 1, "action": {"type": "\ud800"}}'},
            None,
        ),
    ],
    ids=["nested", "huge", "binary", "lone-surrogate"],
)
async def test_a_hostile_frame_is_answered_and_the_socket_lives(
    make_user, caplog, frame, code
):
    table, ana, _ = await database_sync_to_async(tables.two_human_table)(make_user)
    comm = await join(table.pk, ana)
    state = await next_of(comm, "state")
    assert await connected_flag(table.pk, 0)
    await comm.send_to(**frame)
    err = await next_of(comm, "error")
    if code is not None:
        assert err["code"] == code
    assert err["message"] and "Traceback" not in err["message"]
    # Still usable: a sync gets the state.
    await comm.send_json_to({"type": "sync"})
    again = await next_of(comm, "state")
    assert again["view"] == state["view"]
    assert not tracebacks(caplog)
    await comm.disconnect()
    assert not await connected_flag(table.pk, 0)


async def test_an_unexpected_exception_answers_internal_and_keeps_the_socket(
    make_user, caplog, monkeypatch
):
    def broken(**kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(table_consumers, "seat_back", broken)
    monkeypatch.setattr(base, "_tracebacks_logged", set())
    table, ana, _ = await database_sync_to_async(tables.two_human_table)(make_user)
    comm = await join(table.pk, ana)
    await next_of(comm, "state")
    for _ in range(3):
        await comm.send_json_to({"type": "back"})
        err = await next_of(comm, "error")
        assert err["code"] == "internal"
        assert "boom" not in err["message"] and "KeyError" not in err["message"]
    await comm.send_json_to({"type": "sync"})
    await next_of(comm, "state")
    assert len(tracebacks(caplog)) == 1  # once per kind, then one line each
    assert sum("KeyError again" in r.getMessage() for r in caplog.records) == 2
    await comm.disconnect()
    assert not await connected_flag(table.pk, 0)


async def test_a_failing_disconnect_still_stops_the_consumer(
    make_user, caplog, monkeypatch
):
    table, ana, _ = await database_sync_to_async(tables.two_human_table)(make_user)
    comm = await join(table.pk, ana)
    await next_of(comm, "state")

    async def broken_discard(group, channel):
        raise ConnectionError("layer away")

    layer = table_consumers.TableConsumer.channel_layer_alias
    assert layer == "default"
    from channels.layers import get_channel_layer

    monkeypatch.setattr(get_channel_layer(), "group_discard", broken_discard)
    await comm.disconnect()
    await asyncio.sleep(0.2)
    # The seat is marked disconnected even though the group discard failed.
    assert not await connected_flag(table.pk, 0)


async def test_a_failure_while_connecting_closes_with_4500_and_cleans_up(
    make_user, monkeypatch
):
    def broken(**kwargs):
        raise RuntimeError("database away")

    monkeypatch.setattr(table_consumers, "table_frame", broken)
    table, ana, _ = await database_sync_to_async(tables.two_human_table)(make_user)
    comm = await join(table.pk, ana)  # accepted before the state was read
    assert (await comm.receive_output(timeout=5))["code"] == 4500
    await comm.disconnect()  # what the server tells the consumer once it closed
    assert not await connected_flag(table.pk, 0)
