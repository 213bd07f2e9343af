"""A socket opened while the channel layer's Redis is down is accepted, told why in
an ``error`` frame and closed with 4500 (docs/protocol.md), not dropped."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from tests.ops.redis_server import RedisServer
from tests.support import session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
]


@pytest.fixture
def stopped_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A private Redis that served once and is now down."""
    redis = RedisServer(tmp_path)
    redis.start()
    redis.kill()
    yield redis
    redis.kill()


@pytest.mark.parametrize("path", ["/ws/presence/", "/ws/lobby/"])
async def test_a_socket_opened_while_redis_is_down_closes_with_4500(
    make_user, stopped_redis, path
):
    user = await database_sync_to_async(make_user)()
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": stopped_redis.url}]},
        }
    }
    with override_settings(CHANNEL_LAYERS=layers):
        comm = WebsocketCommunicator(
            application,
            path,
            headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
        )
        connected, _ = await comm.connect(timeout=10)
        assert connected
        frame = await comm.receive_json_from(timeout=10)
        assert frame["type"] == "error"
        assert frame["code"] == "unavailable"
        assert frame["message"]
        assert await comm.receive_output(timeout=10) == {
            "type": "websocket.close",
            "code": 4500,
        }
        await comm.disconnect()
