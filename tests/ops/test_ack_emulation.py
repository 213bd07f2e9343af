"""Which workers keep kombu's ack emulation (config/settings.py explains why)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.support import server_env

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_task_the_table_worker_holds_writes_nothing_to_redis(celery_worker_running):
    """A countdown task held by the table worker is not copied into kombu's
    unacknowledged hash: the sweeps, not a redelivery an hour later, redo a lost
    table job, and the copy costs Redis commands on every computer move."""
    from config.celery import app
    from ops.services import beacon_schedule

    assert celery_worker_running == "process"
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        client, key = channel.client, channel.unacked_key
        before = client.hlen(key)
        beacon_schedule(countdown=20)
        deadline = time.monotonic() + 20
        held = False
        while not held:
            assert time.monotonic() < deadline, "the worker did not take the task"
            scheduled = app.control.inspect(timeout=1).scheduled() or {}
            held = any(
                s["request"]["name"] == "ops.beacon_fire"
                for tasks in scheduled.values()
                for s in tasks
            )
        assert client.hlen(key) == before


def test_the_reviews_worker_keeps_ack_emulation():
    """A review has no sweep: the reviews' worker starts with the emulation on,
    while the table workers' default has it off."""
    from config.celery import app

    assert app.conf.broker_transport_options["ack_emulation"] is False
    probe = (
        "from celery import Celery\n"
        "def worker_main(app, argv):\n"
        "    print(app.conf.broker_transport_options['ack_emulation'], argv[2])\n"
        "Celery.worker_main = worker_main\n"
        "from config import review_worker\n"
        "review_worker.main([])\n"
    )
    env = {**server_env(), "CELERY_ACK_EMULATION": "false"}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert out == ["True", settings.REVIEW_QUEUE]
