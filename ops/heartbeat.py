"""The worker's and beat's heartbeats: timestamps in the cache, for ``/healthz``.

Beat sends ``ops.heartbeat`` every few seconds (``CELERY_BEAT_SCHEDULE``) and notes
when it did (``beat_published``, from the publishing process); a worker that runs
the task notes when it ran (``worker_ran``). A fresh worker stamp proves the whole
path of timed work: beat, the broker and a consuming worker.

The heartbeat task expires after a few seconds, so a worker sweeping a long queue
never runs it: ``worker_task_started`` (every task a worker starts, at most once a
second per process) tells such a worker, alive but behind, from a dead one.
"""

from __future__ import annotations

import threading
import time

from django.core.cache import cache

HEARTBEAT_TASK = "ops.heartbeat"
# Beat sends the heartbeat this often (settings) ...
HEARTBEAT_SECONDS = 5.0
# ... and a stamp older than this (four missed beats) means the sender is gone.
STALE_AFTER_SECONDS = 20.0
# The stamps outlive any outage worth reporting as an age rather than "never".
STAMP_TTL = 24 * 3600

WORKER_KEY = "ops:heartbeat:worker"
BEAT_KEY = "ops:heartbeat:beat"
WORKER_TASK_KEY = "ops:heartbeat:worker-task"
# A worker process writes its task stamp at most this often.
TASK_STAMP_SECONDS = 1.0

_task_stamped = 0.0
_task_stamp_lock = threading.Lock()


def worker_ran() -> None:
    cache.set(WORKER_KEY, time.time(), STAMP_TTL)


def worker_task_started() -> None:
    """Note that a worker of this process started a task (any task) just now."""
    global _task_stamped  # one throttle per process
    now = time.time()
    with _task_stamp_lock:
        if now - _task_stamped < TASK_STAMP_SECONDS:
            return
        _task_stamped = now
    cache.set(WORKER_TASK_KEY, now, STAMP_TTL)


def beat_published() -> None:
    cache.set(BEAT_KEY, time.time(), STAMP_TTL)


def stamp_age(key: str) -> float | None:
    """Seconds since the stamp under ``key`` was written; None if never."""
    stamp = cache.get(key)
    if stamp is None:
        return None
    return max(0.0, time.time() - float(stamp))
