"""The in-process Celery worker of the embedded default.

Started by ``config.asgi`` (only servers import it), never from
``AppConfig.ready()``, which also runs in ``migrate``, ``shell`` and the autoreloader's
parent. It consumes the memory broker from a daemon thread with a thread pool, so
countdown tasks (turn clocks, bot moves) fire exactly as they do under a separate
worker, and it runs the beat schedule too, from memory: its interval tasks and its
crontab entries (the league's Monday rollover, with an hourly catch-up for what a
restart missed) need nothing worth a file (``celery.beat``'s default
``PersistentScheduler`` would leave a shelve file per process behind).

Hand reviews (``games.review_hand``) have a queue of their own
(``settings.REVIEW_QUEUE``) and a second worker of one thread consuming only it,
so a review never takes a thread the table jobs wait for. It runs on a Celery
app of its own: a worker selects its queues on its app, and the two workers
must not share that choice (the memory broker is one per process, so both apps
see the same queues).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_worker: Any = None
_beat: Any = None
_reviews: Any = None


def embedded_worker_start(*, concurrency: int = 4, beat: bool = True) -> object:
    """Start the in-process worker once per process and return it."""
    global _worker, _beat, _reviews  # one worker per process
    with _lock:
        if _worker is not None:
            return _worker
        from celery.worker import WorkController

        from config.celery import app

        worker = WorkController(
            app=app,
            pool_cls="threads",
            concurrency=concurrency,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
            hostname="embedded@localhost",
        )
        thread = threading.Thread(
            target=worker.start, name="embedded-celery-worker", daemon=True
        )
        thread.start()
        if beat:
            # Beat as a thread: the worker's own ``beat=True`` forks a process.
            _beat = beat_service(app)
            _beat.start()
        _reviews = review_worker_start()
        _worker = worker
        logger.info("embedded Celery worker started (concurrency %s)", concurrency)
        return worker


def review_worker_start() -> Any:
    """The reviews' worker: one thread, only ``settings.REVIEW_QUEUE``."""
    from celery import Celery
    from celery.worker import WorkController
    from django.conf import settings

    import games.tasks  # noqa: F401 (its shared tasks join the new app)

    # Not the current app: ``current_app`` (what the services send tasks with,
    # what tests patch) stays ``config.celery.app`` in every thread.
    app = Celery("dominoes-reviews", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    worker = WorkController(
        app=app,
        pool_cls="threads",
        concurrency=1,
        queues=[settings.REVIEW_QUEUE],
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="WARNING",
        hostname="embedded-reviews@localhost",
    )
    threading.Thread(
        target=worker.start, name="embedded-celery-reviews", daemon=True
    ).start()
    return worker


def beat_service(app: Any) -> Any:
    """Celery beat as a thread of this process, its schedule kept in memory."""
    from celery.beat import EmbeddedService

    return EmbeddedService(app, thread=True, scheduler_cls="celery.beat:Scheduler")


def embedded_worker_alive() -> bool:
    """Whether this process runs an in-process worker that has not stopped."""
    return any(
        t.name == "embedded-celery-worker" and t.is_alive()
        for t in threading.enumerate()
    )


def embedded_worker_stop() -> None:
    """Stop beat (no new periodic task) and then the worker, if this process runs
    them. Tasks still running are left to the process's exit (``config.serve``
    bounds how long that may take)."""
    global _worker, _beat, _reviews  # one worker per process
    with _lock:
        worker, beat, reviews = _worker, _beat, _reviews
        _worker = _beat = _reviews = None
    if beat is not None:
        beat.service.stop(wait=False)
    for each in (worker, reviews):
        if each is not None:
            each.stop(in_sighandler=False)
