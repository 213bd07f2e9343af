"""Probes of the platform's components, for ``/healthz``."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Table
from ops.backlog import queue_backlog
from ops.heartbeat import (
    BEAT_KEY,
    STALE_AFTER_SECONDS,
    WORKER_KEY,
    WORKER_TASK_KEY,
    stamp_age,
)

RECEIVE_TRIES = 6


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def check_channel_layer() -> str:
    """Send a message to a fresh channel and read it back."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")

    async def round_trip() -> None:
        channel = await layer.new_channel("healthz.")
        token = secrets.token_hex(8)
        message: dict[str, str] = {}
        try:
            # Pub/sub may not have the new subscription in place for the very first
            # send: send again until one arrives.
            for _ in range(RECEIVE_TRIES):
                await layer.send(channel, {"type": "healthz", "token": token})
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(layer.receive(channel), 0.5)
                    break
        finally:
            # A receive that is cancelled makes the pub/sub layer drop the channel's
            # subscription; without it every probe would leave one behind.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 0.01)
        if message.get("token") != token:
            raise RuntimeError("channel layer returned no or another message")

    async_to_sync(round_trip)()
    return type(layer).__name__


def check_broker() -> str:
    """The task broker answers, and (embedded default) the in-process worker runs."""
    from config.celery import app

    if settings.EMBEDDED:
        from config.embedded_worker import embedded_worker_alive

        if settings.EMBEDDED_WORKER and not embedded_worker_alive():
            raise RuntimeError("the in-process worker is not running")
        return "memory"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "redis"


def _fresh(key: str, who: str) -> str:
    age = stamp_age(key)
    if age is None:
        raise RuntimeError(f"no {who} heartbeat yet")
    if age > STALE_AFTER_SECONDS:
        raise RuntimeError(f"no {who} heartbeat for {age:.0f} s")
    return f"heartbeat {age:.1f} s ago"


class Behind(Exception):
    """The component is alive but behind: reported, not counted as down."""

    def __init__(self, message: str, **details: float | int | None) -> None:
        super().__init__(message)
        self.details = details


def check_worker() -> str:
    """A worker ran the heartbeat task recently (beat sends it every 5 s).

    A heartbeat waits in the queue like any task and expires after 10 s, so a
    worker working through a long queue misses them while it runs other tasks:
    then it is reported alive but behind (``Behind``), with the queue's length and
    the age of its oldest task, and only a worker that starts no task at all is
    down.
    """
    try:
        return _fresh(WORKER_KEY, "worker")
    except RuntimeError:
        working = stamp_age(WORKER_TASK_KEY)
        if working is None or working > STALE_AFTER_SECONDS:
            raise
        length, oldest = queue_backlog()
        waited = "" if oldest is None else f", the oldest waiting {oldest:.0f} s"
        raise Behind(
            f"worker alive but behind: {length} tasks queued{waited}",
            queue=length,
            oldest_task_seconds=None if oldest is None else round(oldest, 1),
        ) from None


def check_beat() -> str:
    """Beat sent the heartbeat task recently."""
    return _fresh(BEAT_KEY, "beat")


# The sweep (every 5 s) runs a table's job 3 s after its deadline: a table this far
# past its deadline has a stuck job (no worker, no beat, or a failing tick).
OVERDUE_ALARM_SECONDS = 15.0


def oldest_overdue() -> tuple[int, float] | None:
    """The playing table longest past its deadline and by how many seconds."""
    row = (
        Table.objects.filter(status=Table.Status.PLAYING, deadline__lt=timezone.now())
        .order_by("deadline")
        .values_list("pk", "deadline")
        .first()
    )
    if row is None or row[1] is None:
        return None
    return row[0], (timezone.now() - row[1]).total_seconds()


def check_timers() -> str:
    """No table waits on a timed job far past its deadline."""
    oldest = oldest_overdue()
    if oldest is None:
        return "no table overdue"
    table_id, late = oldest
    if late > OVERDUE_ALARM_SECONDS:
        raise RuntimeError(f"table {table_id} is {late:.0f} s past its deadline")
    return f"oldest overdue table {late:.1f} s late"


CHECKS = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
    "worker": check_worker,
    "beat": check_beat,
    "timers": check_timers,
}
