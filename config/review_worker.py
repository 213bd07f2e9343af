"""The reviews' worker of the distributed platform: ``python -m config.review_worker``.

A Celery worker of one thread consuming only ``settings.REVIEW_QUEUE`` (hand
reviews, docs/review.md), so reviews never take a thread of the table workers
(``celery -A config worker`` consumes only the default queue). The queue's name
carries the deployment's prefix, which this reads from the settings.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A review lost with a killed worker has no sweep to redo it: its task stays
    # in Redis until acknowledged (settings.CELERY_BROKER_TRANSPORT_OPTIONS).
    os.environ["CELERY_ACK_EMULATION"] = "true"
    import django

    django.setup()
    from django.conf import settings

    from config.celery import app

    app.worker_main(
        [
            "worker",
            "-Q",
            settings.REVIEW_QUEUE,
            "--concurrency=1",
            "--loglevel=INFO",
            "-n",
            "reviews@%h",
            *argv,
        ]
    )


if __name__ == "__main__":
    main(sys.argv[1:])
