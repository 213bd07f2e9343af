"""``realtime.outbox``: group sends from synchronous code, in order."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from realtime import outbox
from tests.support.loops import loop_thread


@pytest.fixture
def server_loop(monkeypatch):
    """A running loop in its own thread, as daphne's would be."""
    monkeypatch.setattr(outbox, "_server_loop", None)
    with loop_thread() as loop:
        yield loop
        # Close this loop's layer connections before the loop goes away.
        asyncio.run_coroutine_threadsafe(get_channel_layer().flush(), loop).result(5)


def listen(loop, group):
    layer = get_channel_layer()

    async def join():
        name = await layer.new_channel()
        await layer.group_add(group, name)
        return name

    name = asyncio.run_coroutine_threadsafe(join(), loop).result(5)

    def received(count):
        async def drain():
            return [(await layer.receive(name))["n"] for _ in range(count)]

        return asyncio.run_coroutine_threadsafe(drain(), loop).result(5)

    return received


MESSAGES = [("table.1", {"type": outbox.FRAMES_TYPE, "n": i}) for i in range(5)]


def test_in_a_server_process_the_sends_run_on_its_loop_and_return_a_future(
    server_loop,
):
    received = listen(server_loop, "table.1")
    outbox.server_loop_register(server_loop)
    future = outbox._group_send(MESSAGES)  # from this (non-loop) thread
    assert future is not None
    future.result(5)
    assert received(5) == [0, 1, 2, 3, 4]


def test_elsewhere_the_call_blocks_until_sent(server_loop):
    received = listen(server_loop, "table.1")
    assert outbox._group_send(MESSAGES) is None  # no server loop registered
    assert received(5) == [0, 1, 2, 3, 4]
