"""Send to channel-layer groups from synchronous code, in order, on the right loop.

Inside a daphne process (a consumer registered the server's event loop), sending with
``async_to_sync`` from a worker thread waits for daphne's housekeeping tick (46-780 ms
measured, DESIGN.md), so the sends are scheduled on the server's own loop with
``run_coroutine_threadsafe``. In a separate worker process there is no such loop and
``async_to_sync`` is used. Callers block until the messages are handed to the layer, so
messages of one table leave in ``seq`` order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Sequence
from typing import Any

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None
SEND_TIMEOUT = 10.0


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop that serves WebSockets in this process."""
    global _server_loop  # noqa: PLW0603 - one server loop per process
    _server_loop = loop


_sender: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """A loop of our own in a daemon thread, for processes without a server loop.

    ``async_to_sync`` would make a new loop, thread and Redis connection per call;
    channels_redis keeps its connections per loop, so one long-lived loop reuses them.
    """
    global _sender  # noqa: PLW0603 - one sender loop per process
    with _sender_lock:
        if _sender is None or not _sender.is_running():
            loop = asyncio.new_event_loop()
            started = threading.Event()
            loop.call_soon(started.set)
            threading.Thread(
                target=loop.run_forever, name="group-send", daemon=True
            ).start()
            started.wait()
            _sender = loop
        return _sender


async def _send_all(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    for group, message in messages:
        await layer.group_send(group, message)


def group_send_all(
    messages: Sequence[tuple[str, dict[str, Any]]],
) -> concurrent.futures.Future[None] | None:
    """Send each ``(group, message)`` in order; log (never raise) a failure.

    Called from a worker thread of a daphne process, the sends are scheduled on the
    server's loop and their future is returned at once: the caller does not wait for
    Redis (a player's reply to their own move does not), and whatever must follow the
    frames (the next timed job, ``games.ticks``) waits on the future. The loop starts
    scheduled sends in order and the layer publishes in order, so one table's frames
    still leave in ``seq`` order. Anywhere else the call blocks until the messages
    are handed to the layer and returns ``None``.
    """
    if not messages:
        return None
    loop = _server_loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    try:
        if loop is not None and loop.is_running() and running is None:
            future = asyncio.run_coroutine_threadsafe(_send_all(messages), loop)
            future.add_done_callback(_log_failure)
            return future
        future = asyncio.run_coroutine_threadsafe(_send_all(messages), _sender_loop())
        future.result(timeout=SEND_TIMEOUT)
    except Exception:  # noqa: BLE001 - clients resync on a gap; the move stands
        logger.exception("broadcast of %d messages failed", len(messages))
    return None


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("broadcast failed: %r", future.exception())
