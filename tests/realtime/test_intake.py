"""The one intake of every socket (``realtime.consumers.SocketConsumer``): signed in
or closed with 4401, a frame allowance, parsing, and refusals answered in words,
with the consumer's own handler seeing only well-formed frames."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from channels.testing import WebsocketCommunicator

from core.refusals import Refusal
from realtime.consumers import NOT_SIGNED_IN, SocketConsumer

ROOT = Path(__file__).resolve().parents[2]


class NotNow(Refusal):
    """A refusal of the test consumer's own domain."""


class Echo(SocketConsumer):
    """Answers ``echo`` and refuses ``later`` in its own words."""

    where = "echo"
    frames_per_second = 0.001  # no refill while a test runs
    frame_burst = 3
    frame_refusals = (NotNow,)
    seen: list[dict] = []

    async def connect(self) -> None:
        await self.player()

    async def frame_received(self, frame: dict) -> None:
        Echo.seen.append(frame)
        if frame["type"] == "echo":
            await self.send_json({"type": "echo", "n": frame.get("n")})
        elif frame["type"] == "later":
            raise NotNow("not_now", "Not now, try again later.")
        else:
            await super().frame_received(frame)


def communicator(user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(Echo.as_asgi(), "/ws/echo/")
    comm.scope["user"] = user
    return comm


PLAYER = SimpleNamespace(pk=7, is_authenticated=True)


@pytest.fixture(autouse=True)
def fresh():
    Echo.seen = []


async def test_a_signed_out_socket_is_closed_with_4401_and_reads_nothing():
    comm = communicator(SimpleNamespace(pk=None, is_authenticated=False))
    connected, _ = await comm.connect(timeout=5)
    assert connected  # accepted first, so the browser can read the code
    closed = await comm.receive_output(timeout=5)
    assert (closed["type"], closed["code"]) == ("websocket.close", NOT_SIGNED_IN)
    await comm.send_to(text_data='{"type": "echo"}')
    assert await comm.receive_nothing(timeout=0.2)
    assert Echo.seen == []
    await comm.disconnect()


async def test_frames_are_parsed_refused_in_words_and_limited():
    comm = communicator(PLAYER)
    assert (await comm.connect(timeout=5))[0]
    await comm.send_to(text_data='{"type": "echo", "n": 1}')
    assert await comm.receive_json_from(timeout=5) == {"type": "echo", "n": 1}
    await comm.send_to(text_data="{not json")
    bad = await comm.receive_json_from(timeout=5)
    assert bad == {
        "type": "error",
        "code": "bad_json",
        "message": "That frame is not valid JSON.",
    }
    await comm.send_to(text_data='{"type": "later"}')
    refused = await comm.receive_json_from(timeout=5)
    assert refused == {
        "type": "error",
        "code": "not_now",
        "message": "Not now, try again later.",
    }
    # The allowance (3) is spent: the next frame is refused before it is read.
    await comm.send_to(text_data='{"type": "echo", "n": 2}')
    limited = await comm.receive_json_from(timeout=5)
    assert limited["code"] == "rate_limited"
    assert limited["message"] == "Too many messages; slow down."
    assert [f["type"] for f in Echo.seen] == ["echo", "later"]
    await comm.disconnect()


async def test_an_unknown_frame_type_is_refused_by_the_base():
    comm = communicator(PLAYER)
    assert (await comm.connect(timeout=5))[0]
    await comm.send_to(text_data='{"type": "dance"}')
    error = await comm.receive_json_from(timeout=5)
    assert error == {
        "type": "error",
        "code": "unknown_type",
        "message": "Unknown frame type.",
    }
    await comm.disconnect()


def test_no_consumer_reads_frames_on_its_own():
    """Every consumer takes its frames through the base's ``receive``: a
    consumer that parsed or rate-limited frames itself would skip the intake."""
    consumers = [
        p
        for p in ROOT.glob("*/**/consumers.py")
        if ".venv" not in p.parts and p != ROOT / "realtime" / "consumers.py"
    ]
    assert len(consumers) >= 7
    for path in consumers:
        source = path.read_text()
        for own in ("def receive(", "frame_parse(", "TokenBucket("):
            assert own not in source, (path.relative_to(ROOT), own)
