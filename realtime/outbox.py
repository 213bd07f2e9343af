"""How a frame leaves the server: the one way after-commit output goes out.

1. A service, inside its transaction and holding the row lock of what changed,
   calls ``post(seq=…, group=…, frames=[(subject, payload), …], job=…)``.
   ``group`` is the channel-layer group every connection of the subject (a table)
   is in; ``payload`` is a plain dict (a seat's view, a spectator's view) under
   its ``subject`` (which seat, or the spectators); ``job`` is what must run once
   those frames are out (the next timed job), or None. Nothing happens yet.
2. On commit (``transaction.on_commit``; a rollback drops the post), the outbox
   serialises each payload once and sends them all in one channel-layer message,
   ``{"type": "outbox.frames", "seq", "texts": {subject: text}}``, to the group:
   one publish a commit rather than one a seat, and each server process receives
   it once for all its sockets of that table. Each connection takes only the text
   of its own subject and sends nothing else to its client, so it sees each frame
   once and never another seat's; the acting connection gets its own move the same
   way, never in a separate reply.
3. Where the frames are sent from: in a server process (daphne) the event loop that
   serves the sockets was registered at ASGI start-up (``asgi_wrap``), and the sends
   are scheduled on it with ``run_coroutine_threadsafe``; the committing thread does
   not wait. ``async_to_sync`` from a worker thread would wait for daphne's
   housekeeping tick instead (tens to hundreds of milliseconds, see DESIGN.md). In
   any other process (a Celery worker) the sends run on one long-lived sender loop
   of this module, and the call blocks until the layer has them.
4. The ``job`` then goes to the publisher thread, which waits for the frames'
   future before running it: a computer's instant reply cannot reach players before
   the move it answers, and publishing a Celery task (about 1 ms of CPU plus a Redis
   round trip) never delays the player's own frame.
5. On the receiving side, ``realtime.consumers.SocketConsumer.outbox_frames`` passes a
   connection each ``seq`` once and in order: older or repeated frames are dropped,
   and a frame that arrives ahead of a missing one waits up to ``GAP_WAIT`` seconds
   for it (two commits of one table in different threads or processes may reach
   the layer in either order). After that the client sees the gap and asks for
   ``sync``.

Unnumbered notices to other sockets (the lobby, invitations) go out through
``notify``, after commit and by the same loop.

The outbox knows groups and numbers, never what a frame means: ``games`` builds the
payloads (``games.payloads``) and the job (``games.ticks``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import queue
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction
from prometheus_client import Counter

logger = logging.getLogger(__name__)

# The channel-layer message type; consumers handle it in ``outbox_frames``.
FRAMES_TYPE = "outbox.frames"
FRAMES_SENT = Counter("dominoes_frames_sent_total", "Frames sent to channel groups.")
# How long a failed or slow send may hold the job that follows it.
SEND_TIMEOUT = 10.0

Payload = Mapping[str, Any]
Message = tuple[str, dict[str, Any]]
Job = Callable[[], None]


@dataclass(frozen=True, slots=True)
class Post:
    """One commit's output: numbered frames per subject of ``group`` and the job
    that follows."""

    seq: int
    group: str
    frames: Sequence[tuple[str, Payload]]
    job: Job | None = None


def post(
    *,
    seq: int,
    group: str,
    frames: Sequence[tuple[str, Payload]],
    job: Job | None = None,
    using: str | None = None,
) -> None:
    """Send ``frames`` (``(subject, payload)``, numbered ``seq``) to ``group`` after
    the current transaction of the database ``using`` (the default one if None)
    commits, then run ``job`` on the publisher thread. Call it inside that
    ``transaction.atomic``."""
    item = Post(seq=seq, group=group, frames=frames, job=job)
    transaction.on_commit(lambda: deliver(item), using=using)


def notify(messages: Sequence[Message]) -> None:
    """Send unnumbered notices (a lobby's counts, "you were seated", an invitation)
    after the current transaction commits, at once outside one.

    Each message names its consumer handler in ``type``; notices carry no ``seq``
    and change no table, so a lost one costs a client nothing its next ``sync`` or
    state frame does not repair. They leave by the same loop as numbered frames.
    """
    batch = list(messages)
    if batch:
        transaction.on_commit(lambda: _group_send(batch))


def messages_of(item: Post) -> list[Message]:
    """The channel-layer message of a post, each payload serialised once."""
    if not item.frames:
        return []
    texts = {subject: json.dumps(payload) for subject, payload in item.frames}
    return [(item.group, {"type": FRAMES_TYPE, "seq": item.seq, "texts": texts})]


def frames_in(message: Mapping[str, Any]) -> int:
    """How many frames a channel-layer message carries (a notice is one)."""
    texts = message.get("texts")
    return len(texts) if isinstance(texts, Mapping) else 1


def deliver(item: Post) -> None:
    """Send a committed post's frames and hand its job to the publisher thread."""
    sent = _group_send(messages_of(item)) if item.frames else None
    if item.job is not None:
        _jobs.put((item.job, sent))
        _publisher_ensure()


# --- sending


_server_loop: asyncio.AbstractEventLoop | None = None


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop that serves WebSockets in this process."""
    global _server_loop  # one server loop per process
    _server_loop = loop


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def asgi_wrap(app: App) -> App:
    """The ASGI application ``app``, registering the serving loop with its first
    scope (daphne has no lifespan events), and again if a new loop serves it."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        if _server_loop is not loop:
            server_loop_register(loop)
        await app(scope, receive, send)

    return application


_sender: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """A loop of our own in a daemon thread, for processes without a server loop.

    ``async_to_sync`` would make a new loop, thread and Redis connection per call;
    channels_redis keeps its connections per loop, so one long-lived loop reuses them.
    """
    global _sender  # one sender loop per process
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


async def _send_all(messages: Sequence[Message]) -> None:
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is not configured"
    for group, message in messages:
        await layer.group_send(group, message)
        FRAMES_SENT.inc(frames_in(message))


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop that serves this process's sockets, for a thread other
    than it to schedule work on; None in a process that serves none (a Celery
    worker, a command) or when called on that loop itself."""
    return _on_server_loop()


def _on_server_loop() -> asyncio.AbstractEventLoop | None:
    """The server loop, if there is one running and this thread is not it."""
    loop = _server_loop
    if loop is None or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None


def _group_send(messages: Sequence[Message]) -> concurrent.futures.Future[None] | None:
    """Send each ``(group, message)`` in order; log (never raise) a failure.

    On a server process the sends are scheduled on its loop and their future is
    returned at once; anywhere else the call blocks until the layer has them and
    returns None. A failed send loses frames, never the move: clients resync on a
    gap in ``seq``.
    """
    loop = _on_server_loop()
    try:
        if loop is not None:
            future = asyncio.run_coroutine_threadsafe(_send_all(messages), loop)
            future.add_done_callback(_log_failure)
            return future
        asyncio.run_coroutine_threadsafe(_send_all(messages), _sender_loop()).result(
            timeout=SEND_TIMEOUT
        )
    except Exception:  # clients resync on a gap; the move stands
        logger.exception("sending %d frames failed", len(messages))
    return None


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("sending frames failed: %r", future.exception())


# --- the publisher thread


_jobs: queue.SimpleQueue[tuple[Job, concurrent.futures.Future[None] | None]] = (
    queue.SimpleQueue()
)
_thread: threading.Thread | None = None
_lock = threading.Lock()


def _publisher_ensure() -> None:
    global _thread  # one publisher thread per process
    if _thread is not None and _thread.is_alive():
        return
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(
                target=_publish_forever, name="outbox-publisher", daemon=True
            )
            _thread.start()


def _publish_forever() -> None:
    while True:
        job, sent = _jobs.get()
        if sent is not None:  # a failed or slow send is logged where it happens
            concurrent.futures.wait([sent], timeout=SEND_TIMEOUT)
        try:
            job()
        except Exception:  # a lost job is the sweep's to recover
            logger.exception("the job after a commit failed: %r", job)
