"""Timed jobs run by the socket server that queued them, without a Celery task.

A move made on a server process (daphne) is followed by the table's next timed job:
most often an easy or medium computer's reply a second later. Publishing that as a
Celery task, and a worker taking it, holding it until its time and running it, is
about a quarter of the servers' CPU per move at 200 busy tables (`bench/ws_load.py
--local-ticks both`), so such a light job (``TickJob.local``) is run here instead:
a timer on the server's event loop, then the task's own body (``games.table_tick``)
in the loop's thread pool, as a socket's own move runs.
Only on a process that serves sockets (``realtime.outbox.server_loop``); a Celery
worker, a test or a management command publishes the task as before, and so does
any process with ``settings.GAMES_LOCAL_TICKS`` off.

Nothing is lost that Celery would have kept: a job held by a worker that dies is
gone too. A server that stops or dies before the timer fires leaves the job on the
table's row (its ``deadline``), and the overdue sweep runs it (``games.sweep``);
a job that runs twice does nothing the second time (``table_tick`` is idempotent by
``seq``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import cache
from typing import Any

from celery import current_app
from django.conf import settings
from prometheus_client import Counter

from realtime import outbox
from realtime.db import database_call

logger = logging.getLogger(__name__)

LOCAL_TICKS = Counter(
    "dominoes_local_ticks_total",
    "Timed jobs a socket server ran itself instead of queueing a Celery task.",
)

Body = Callable[[int, int], Any]

# The jobs scheduled and running, held so that the loop does not drop them.
_running: set[asyncio.Task[None]] = set()


def tick_here(*, task: str, table_id: int, seq: int, countdown: float) -> bool:
    """Run the body of the Celery task named ``task`` with ``(table_id, seq)`` on
    this process in ``countdown`` seconds; False (nothing done) where this process
    serves no sockets or the setting is off. Called from a thread other than the
    server's loop (the outbox's publisher thread). By the task's name, as the
    services queue it: they may not import the task module, which imports them."""
    if not settings.GAMES_LOCAL_TICKS:
        return False
    loop = outbox.server_loop()
    if loop is None:
        return False
    found = _task_of(task)
    if found is None:
        return False
    body: Body = found.run
    loop.call_soon_threadsafe(_schedule, loop, body, table_id, seq, countdown)
    return True


@cache
def _task_of(name: str) -> Any:
    """The Celery task named ``name``. A server process has not loaded the task
    modules (Celery's autodiscovery imports them when a worker starts): it imports
    them here, once, as a worker would."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    found = current_app.tasks.get(name)
    if found is None:
        logger.error("no task %s: timed jobs go to Celery", name)
    return found


def _schedule(
    loop: asyncio.AbstractEventLoop,
    body: Body,
    table_id: int,
    seq: int,
    countdown: float,
) -> None:
    job = loop.create_task(_tick_later(body, table_id, seq, countdown))
    _running.add(job)
    job.add_done_callback(_running.discard)


async def _tick_later(body: Body, table_id: int, seq: int, countdown: float) -> None:
    if countdown > 0:
        await asyncio.sleep(countdown)
    LOCAL_TICKS.inc()
    try:
        await database_call(body)(table_id, seq)
    except Exception:  # the overdue sweep runs a job that failed here
        logger.exception("table %s: the timed job at seq %s failed", table_id, seq)
