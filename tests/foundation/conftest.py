"""A Celery worker for the tests that need scheduled work to really fire."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def celery_worker_running():
    """The embedded default's in-process worker, or a real ``celery worker`` process.

    On the distributed set-up the worker is a separate process on the same Redis, as in
    production; it is stopped at the end of the session.
    """
    if settings.EMBEDDED:
        from config.embedded_worker import embedded_worker_alive, embedded_worker_start

        embedded_worker_start()
        assert embedded_worker_alive()
        yield "embedded"
        return
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            "-n",
            f"tests-{os.getpid()}@localhost",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
    )
    from config.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        assert proc.poll() is None, "the celery worker exited"
        assert time.monotonic() < deadline, "the celery worker did not come up"
    yield "process"
    proc.terminate()
    proc.wait(timeout=20)
