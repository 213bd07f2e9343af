"""Timed table jobs handed to Celery from a thread of their own.

Decision: publishing a task costs about 1 ms of CPU in Celery and kombu plus a Redis
round trip. Done by the thread that committed a player's move, it delayed that
player's reply, and in daphne it ran under the interpreter lock every other player
was waiting for. By the time a job is handed over here its transaction has committed
(the deadline is on the table row) and the move's frames have gone out, so the
publish can happen a moment later on this process's publisher thread. If the process
dies before it publishes, the sweep runs the overdue job (``games.sweep``), as for
any lost task; jobs are idempotent by ``seq`` either way.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import threading
from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from realtime.broadcast import SEND_TIMEOUT

logger = logging.getLogger(__name__)

Job = tuple[int, int, datetime, tuple[concurrent.futures.Future[None], ...]]

_jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()
_thread: threading.Thread | None = None
_lock = threading.Lock()


def tick_publish(
    table_id: int,
    seq: int,
    deadline: datetime,
    after: Sequence[concurrent.futures.Future[None]] = (),
) -> None:
    """Queue ``games.table_tick(table_id, seq)`` to run at ``deadline``, once the
    sends in ``after`` (the move's frames) are done: a computer's instant reply must
    not reach the players before the move it answers."""
    _jobs.put((table_id, seq, deadline, tuple(after)))
    _publisher_ensure()


def _publisher_ensure() -> None:
    global _thread  # noqa: PLW0603 - one publisher thread per process
    if _thread is not None and _thread.is_alive():
        return
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(
                target=_publish_forever, name="tick-publisher", daemon=True
            )
            _thread.start()


def _publish_forever() -> None:
    while True:
        job = _jobs.get()
        try:
            _publish(*job)
        except Exception:  # noqa: BLE001 - the sweep runs the job if this one is lost
            logger.exception("table %s: could not queue the job for seq %s", *job[:2])


def _publish(
    table_id: int,
    seq: int,
    deadline: datetime,
    after: tuple[concurrent.futures.Future[None], ...],
) -> None:
    from games.tasks import table_tick_task

    if after:  # a failed or slow send is logged where it happens; publish anyway
        concurrent.futures.wait(after, timeout=SEND_TIMEOUT)
    countdown = max(0.0, (deadline - timezone.now()).total_seconds())
    table_tick_task.apply_async((table_id, seq), countdown=countdown)
