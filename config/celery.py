"""The Celery application, configured from Django's settings (``CELERY_*``)."""

import gc
import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dominoes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def freeze_loaded(**_: Any) -> None:
    """Take everything loaded so far out of the collector's reach (``gc.freeze``).

    What a worker has loaded when it starts taking tasks (Django, the apps, the
    tasks) lives as long as the process; left in the collector's generations, every
    full collection walks it. A task that makes thousands of objects (an arena's
    pairing round of 1,000 players) then pays full collections of tens of
    milliseconds in many of its runs (``bench/arena.py``, which freezes as a
    worker does). ``config.asgi`` freezes the server processes the same way.
    """
    gc.freeze()


# A pool process once forked (prefork), or the worker itself (solo and threads
# pools, which run their tasks in the process that reports ready).
worker_process_init.connect(freeze_loaded, weak=False)
worker_ready.connect(freeze_loaded, weak=False)
