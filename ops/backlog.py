"""The task queue's backlog: how many tasks wait and how long the oldest has waited.

Every task message carries the time it was sent (``sent_at``, a header added when
it is published), so the oldest waiting message tells its age. With Redis as the
broker a queue is a list the worker pops from the tail: its length is the number of
waiting tasks and its last element the oldest. Countdown tasks a worker has already
taken wait in the worker, not here. The embedded default's memory broker is not
inspected (one process: its worker is checked directly).
"""

from __future__ import annotations

import json
import time
from functools import cache
from typing import Any

import redis
from django.conf import settings

SENT_AT = "sent_at"


def stamp_sent_at(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """``before_task_publish``: note when the message was sent."""
    if headers is not None:
        headers.setdefault(SENT_AT, time.time())


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def queue_backlog(queue: str | None = None) -> tuple[int, float | None]:
    """Tasks waiting in ``queue`` (the deployment's) and the oldest one's age in
    seconds (None when the queue is empty or its age is unknown)."""
    if not settings.REDIS_URL:
        return 0, None
    name = queue or settings.CELERY_TASK_DEFAULT_QUEUE
    client = _client(settings.REDIS_URL)
    pipe = client.pipeline(transaction=False)
    pipe.llen(name)
    pipe.lindex(name, -1)
    length, oldest = pipe.execute()
    if not length or oldest is None:
        return int(length or 0), None
    try:
        sent = float(json.loads(oldest)["headers"][SENT_AT])
    except (ValueError, KeyError, TypeError):
        return int(length), None
    return int(length), max(0.0, time.time() - sent)
