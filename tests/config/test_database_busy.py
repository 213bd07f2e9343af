"""No free database connection is a busy server, not a fault.

A page answers 503 with a player-worded message (never a 500 or a traceback); a
socket gets an ``error`` frame with code ``busy`` and when to retry, keeps its
connection for frames, and a socket being opened is closed with 4500 after it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from django.db import OperationalError

from realtime.consumers import SocketConsumer
from realtime.db import database_busy

FULL = "connection failed: FATAL:  sorry, too many clients already"


def test_the_pool_refusals_are_recognised():
    assert database_busy(OperationalError(FULL))
    assert database_busy(
        OperationalError("FATAL: remaining connection slots are reserved for roles")
    )
    assert database_busy(
        OperationalError("ERROR: no more connections allowed (max_client_conn)")
    )
    assert not database_busy(OperationalError("database is locked"))
    assert not database_busy(ValueError(FULL))


@pytest.mark.django_db
def test_a_page_answers_503_with_a_message_for_players(client, make_user, monkeypatch):
    from games import views

    def refuse(**_: Any) -> None:
        raise OperationalError(FULL)

    monkeypatch.setattr(views, "player_games", refuse)
    client.raise_request_exception = False
    client.force_login(make_user("ana"))
    reply = client.get("/games/")
    assert reply.status_code == 503
    assert reply["Retry-After"] == "2"
    page = reply.content.decode()
    assert "The server is busy, try again in a moment." in page
    assert "too many clients" not in page and "Traceback" not in page


def test_an_error_raised_outside_a_view_is_503_too(rf):
    from config.error_views import server_error

    try:
        raise OperationalError(FULL)
    except OperationalError:
        reply = server_error(rf.get("/"))
    assert reply.status_code == 503


class BusyConsumer(SocketConsumer):
    where = "test"
    refuse_connect = False

    async def connect(self) -> None:
        if self.refuse_connect:
            raise OperationalError(FULL)
        await self.accept()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        raise OperationalError(FULL)


async def _run(consumer: type[SocketConsumer], frames: int) -> list[dict[str, Any]]:
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "websocket", "path": "/ws/test/", "headers": []}
    task = asyncio.create_task(consumer.as_asgi()(scope, inbox.get, send))
    await inbox.put({"type": "websocket.connect"})
    for _ in range(frames):
        await inbox.put({"type": "websocket.receive", "text": "{}"})
    await asyncio.sleep(0.2)
    await inbox.put({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(task, 5)
    return sent


async def test_a_socket_frame_gets_a_busy_error_and_the_socket_stays(caplog):
    import json

    caplog.set_level(logging.WARNING)
    sent = await _run(BusyConsumer, 2)
    kinds = [m["type"] for m in sent]
    assert kinds == ["websocket.accept", "websocket.send", "websocket.send"]
    frame = json.loads(sent[1]["text"])
    assert frame["code"] == "busy" and frame["retry"] == 2
    assert frame["message"] == "The server is busy, try again in a moment."
    assert not any(r.exc_info for r in caplog.records)


async def test_a_socket_opened_while_busy_is_told_then_closed_with_4500():
    import json

    class RefusingConsumer(BusyConsumer):
        refuse_connect = True

    sent = await _run(RefusingConsumer, 0)
    assert [m["type"] for m in sent] == [
        "websocket.accept",
        "websocket.send",
        "websocket.close",
    ]
    assert json.loads(sent[1]["text"])["code"] == "busy"
    assert sent[2]["code"] == 4500
