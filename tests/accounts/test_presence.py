"""The presence socket: auth, Origin, online count, bad frames, idling on Redis."""

import asyncio
import json
import logging
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def cookie_header(user) -> bytes:
    return (await database_sync_to_async(session_cookie)(user)).encode()


async def open_socket(user=None, origin=b"http://testserver"):
    headers = []
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append((b"cookie", await cookie_header(user)))
    comm = WebsocketCommunicator(application, "/ws/presence/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    return comm, connected


async def next_count(comm) -> int:
    msg = await comm.receive_json_from(timeout=5)
    assert msg["type"] in {"online", "pong"}
    return msg["online"]


async def wait_count(comm, expected: int) -> None:
    """Read pushed counts until ``expected`` arrives (earlier pushes queue first)."""
    seen = []
    for _ in range(10):
        seen.append(await next_count(comm))
        if seen[-1] == expected:
            return
    raise AssertionError(f"never saw {expected}: {seen}")


async def make(make_user, name):
    return await database_sync_to_async(make_user)(name)


async def test_anonymous_connection_is_refused():
    comm, connected = await open_socket(user=None)
    assert connected  # accepted, then closed with "sign in" (4401)
    assert (await comm.receive_output(timeout=5))["code"] == 4401


@pytest.mark.parametrize("origin", [b"http://evil.example", None])
async def test_wrong_or_missing_origin_is_refused(make_user, origin):
    user = await make(make_user, "origin")
    comm, connected = await open_socket(user, origin=origin)
    assert not connected


async def test_online_count_follows_connects_and_disconnects(make_user):
    ana, ben = await make(make_user, "ana"), await make(make_user, "ben")
    first, ok = await open_socket(ana)
    assert ok
    assert await next_count(first) == 1
    second, ok = await open_socket(ben)
    assert ok
    assert await next_count(second) == 2
    assert await next_count(first) == 2  # pushed to the earlier connection
    # A second tab of the same player does not count twice.
    third, ok = await open_socket(ben)
    assert await next_count(third) == 2
    await third.disconnect()
    await second.disconnect()
    await wait_count(first, 1)
    assert await first.receive_nothing(timeout=0.3)
    await first.send_json_to({"type": "ping"})
    assert await first.receive_json_from(timeout=5) == {"type": "pong", "online": 1}
    await first.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ('["a list"]', "bad_frame"),
        ('{"type": "shout"}', "unknown_type"),
        (json.dumps({"type": "ping", "pad": "x" * 9000}), "too_large"),
    ],
)
async def test_bad_frames_get_an_error_and_one_warning(make_user, caplog, frame, code):
    comm, ok = await open_socket(await make(make_user, "frames"))
    assert ok
    await next_count(comm)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await comm.send_to(text_data=frame)
        reply = await comm.receive_json_from(timeout=5)
    assert reply["type"] == "error"
    assert reply["code"] == code
    assert reply["message"] and "shout" not in reply["message"]
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(noisy) == 1 and noisy[0].levelno == logging.WARNING
    assert noisy[0].exc_info is None
    # The connection survives and still answers.
    await comm.send_json_to({"type": "ping"})
    assert (await comm.receive_json_from(timeout=5))["type"] == "pong"
    await comm.disconnect()


@pytest.mark.services
@pytest.mark.slow
async def test_idle_socket_stays_open_for_30_seconds_on_redis(make_user):
    """Regression for redis-py 8's 5 s read timeout closing idle sockets (1011)."""
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis")
    idle, ok = await open_socket(await make(make_user, "idler"))
    assert ok
    assert await next_count(idle) == 1
    assert await idle.receive_nothing(timeout=30, interval=1)
    # Still subscribed to its group: a new connection's count reaches it.
    other, ok = await open_socket(await make(make_user, "waker"))
    assert await next_count(idle) == 2
    await idle.send_json_to({"type": "ping"})
    assert await idle.receive_json_from(timeout=5) == {"type": "pong", "online": 2}
    await other.disconnect()
    await idle.disconnect()
    await asyncio.sleep(0)


def test_presence_counts_sockets_without_the_database(
    django_assert_num_queries, monkeypatch
):
    from accounts import presence
    from realtime import socket_sets

    with django_assert_num_queries(0):
        assert presence.presence_connect(user_id=1, channel_name="a1") == (True, 1)
        assert presence.presence_connect(user_id=1, channel_name="a2") == (False, 1)
        assert presence.presence_connect(user_id=2, channel_name="b1") == (True, 2)
        assert presence.user_online(1) and presence.user_online(2)
        # Ana's second tab closes: she stays online.
        assert presence.presence_disconnect(user_id=1, channel_name="a2") is False
        assert presence.presence_touch(user_id=1, channel_name="a1") == 2
        # Her last tab closes: she counts as online until her grace is over.
        assert presence.presence_disconnect(user_id=1, channel_name="a1") is True
        assert not presence.user_online(1)
        assert presence.online_count() == 2
        assert presence.presence_lapse(user_id=1) == (True, 1)
        assert presence.presence_lapse(user_id=1) == (False, 1)  # said once
        assert presence.online_count() == 1
        # Back within the grace (a reload): she never went offline.
        assert presence.presence_connect(user_id=3, channel_name="c1") == (True, 2)
        assert presence.presence_disconnect(user_id=3, channel_name="c1") is True
        assert presence.presence_connect(user_id=3, channel_name="c2") == (False, 2)
        assert presence.presence_lapse(user_id=3) == (False, 2)
        assert presence.presence_disconnect(user_id=3, channel_name="c2") is True
        assert presence.presence_lapse(user_id=3) == (True, 1)
    # Ben's server dies with his socket open: once its entry expires he is gone.
    later = socket_sets.time.time() + socket_sets.SOCKET_SECONDS + 1
    monkeypatch.setattr(socket_sets, "time", SimpleNamespace(time=lambda: later))
    assert presence.online_count() == 0
    assert not presence.user_online(2)
