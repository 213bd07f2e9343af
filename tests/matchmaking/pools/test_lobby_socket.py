"""The lobby socket: state, Find/Cancel, seating frames, bad frames, reconnects."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from matchmaking.models import Search
from matchmaking.pools.services import wave_run
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_broker(queued, no_wave_tasks):
    """Timed jobs of the tables and extra waves are recorded, not queued."""


async def lobby(user) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    return comm


async def until(comm: WebsocketCommunicator, kind: str) -> dict:
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def test_find_then_seated_then_the_table_url(make_user):
    ana = await database_sync_to_async(make_user)("ana")
    ben = await database_sync_to_async(make_user)("ben")
    a, b = await lobby(ana), await lobby(ben)
    first = await until(a, "state")
    assert first["search"] is None
    assert {p["key"] for p in first["pools"]} >= {"draw-2", "draw-4p"}
    await until(b, "state")
    await a.send_json_to({"type": "search", "pool": "draw-2"})
    state = await until(a, "state")
    assert state["search"]["pool"] == "draw-2"
    low, high = state["search"]["range"]
    assert low + high == 3000 and 1350 < low <= 1400  # 100 at once, widening
    counts = await until(b, "counts")
    assert next(p for p in counts["pools"] if p["key"] == "draw-2")["waiting"] == 1
    await b.send_json_to({"type": "search", "pool": "draw-2"})
    await until(b, "state")
    result = await database_sync_to_async(wave_run)(pool_key="draw-2")
    table_id = result.tables[0]
    for comm in (a, b):
        seated = await until(comm, "seated")
        assert seated == {
            "type": "seated",
            "table": table_id,
            "url": f"/tables/{table_id}/",
        }
    await a.disconnect()
    await b.disconnect()


async def test_a_reconnect_keeps_the_search(make_user):
    ana = await database_sync_to_async(make_user)("ana")
    a = await lobby(ana)
    await until(a, "state")
    await a.send_json_to({"type": "search", "pool": "spider-2"})
    await until(a, "state")
    await a.disconnect()
    again = await lobby(ana)
    state = await until(again, "state")
    assert state["search"]["pool"] == "spider-2"
    await again.send_json_to({"type": "cancel"})
    assert (await until(again, "state"))["search"] is None
    await again.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "search", "pool": "nope-9"}, "unknown_pool"),
        ({"type": "search", "pool": 7}, "unknown_pool"),
        ({"type": "search"}, "unknown_pool"),
        ({"type": "cancel"}, "not_searching"),
        ({"type": "dance"}, "unknown_type"),
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_frame"),
    ],
)
async def test_bad_frames_get_a_clear_error_and_change_nothing(make_user, frame, code):
    ana = await database_sync_to_async(make_user)("ana")
    a = await lobby(ana)
    await until(a, "state")
    await a.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
    error = await until(a, "error")
    assert error["code"] == code
    assert error["message"] and "Traceback" not in error["message"]
    assert "{" not in error["message"] and "_" not in error["message"]
    assert not await database_sync_to_async(Search.objects.exists)()
    await a.disconnect()


async def test_a_second_search_is_refused(make_user):
    ana = await database_sync_to_async(make_user)("ana")
    a = await lobby(ana)
    await until(a, "state")
    await a.send_json_to({"type": "search", "pool": "draw-2"})
    await until(a, "state")
    await a.send_json_to({"type": "search", "pool": "block-2"})
    assert (await until(a, "error"))["code"] == "already_searching"
    pools = await database_sync_to_async(
        lambda: list(Search.objects.values_list("pool", flat=True))
    )()
    assert pools == ["draw-2"]
    await a.disconnect()


async def test_anonymous_sockets_are_closed():
    comm = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    out = await comm.receive_output(timeout=5)
    assert out == {"type": "websocket.close", "code": 4401}
