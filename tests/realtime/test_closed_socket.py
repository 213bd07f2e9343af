"""A push to a socket the server has already closed is a normal event.

daphne raises autobahn's ``Disconnected`` when a consumer sends to a socket it
closed (a 1009 for an oversized frame, a tab that went away) before the consumer
has heard ``websocket.disconnect``. That send must neither log a traceback nor be
answered with an ``error`` frame, and the consumer must stop normally afterwards.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from autobahn.exception import Disconnected

from realtime.consumers import SocketConsumer


class PushConsumer(SocketConsumer):
    where = "test"

    async def connect(self) -> None:
        await self.accept()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        await self.send_json({"type": "pong"})

    async def note_push(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "online", "online": event["online"]})


async def test_sends_to_a_closed_socket_are_dropped_quietly(caplog):
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[dict[str, Any]] = []
    closed = asyncio.Event()
    accepted = asyncio.Event()
    attempts_after_close = 0

    async def send(message: dict[str, Any]) -> None:
        nonlocal attempts_after_close
        if closed.is_set():
            attempts_after_close += 1
            raise Disconnected("Attempt to send on a closed protocol")
        sent.append(message)
        if message["type"] == "websocket.accept":
            accepted.set()

    app = PushConsumer.as_asgi()
    scope = {"type": "websocket", "path": "/ws/test/", "headers": []}
    caplog.set_level(logging.WARNING)
    task = asyncio.create_task(app(scope, inbox.get, send))
    await inbox.put({"type": "websocket.connect"})
    await asyncio.wait_for(accepted.wait(), 5)

    closed.set()  # the server closes the socket (1009, a closed tab)
    await inbox.put({"type": "websocket.receive", "text": "{}"})
    await inbox.put({"type": "websocket.receive", "text": "{}"})
    await inbox.put({"type": "websocket.disconnect", "code": 1009})
    await asyncio.wait_for(task, 5)

    assert task.exception() is None
    # The first failed send marks the socket gone; nothing else is tried.
    assert attempts_after_close == 1
    assert [m["type"] for m in sent] == ["websocket.accept"]
    # What this test's consumer logged, on this loop's thread: a thread an earlier
    # test left behind (a stalled database call it released) may log meanwhile.
    ours = [r for r in caplog.records if r.thread == threading.get_ident()]
    errors = [r for r in ours if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    assert not any(r.exc_info for r in ours)
