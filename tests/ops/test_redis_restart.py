"""On the real services: the Celery worker (and beat) survive a Redis restart, and a
table whose timed job was lost during the outage moves soon after Redis returns."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import Celery
from django.conf import settings
from django.utils import timezone

from games.models import Table
from tests.ops.redis_server import RedisServer
from tests.support import server_env
from tests.support.servers import BIN, Server, _spawn, celery_worker_start
from tests.support.tables import two_human_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def private_app(url: str) -> Celery:
    # Not the current app: the rest of this process keeps publishing to its own.
    app = Celery("probe", broker=url, set_as_current=False)
    app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
    return app


@pytest.fixture
def private_stack(tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    env = {**server_env(), "REDIS_URL": redis.url}
    worker = celery_worker_start(env, name="restart", log=tmp_path / "worker.log")
    beat = Server(
        _spawn(
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel=WARNING",
                f"--schedule={tmp_path / 'beat-schedule'}",
            ],
            env,
            tmp_path / "beat.log",
        )
    )
    yield redis, worker, beat, tmp_path
    beat.stop()
    worker.stop()
    redis.kill()


@pytest.mark.timeout(60)
def test_the_worker_survives_a_redis_restart_and_a_lost_job_runs_soon(
    private_stack, make_user, queued
):
    redis, worker, beat, tmp_path = private_stack
    app = private_app(redis.url)
    # Countdown tasks the worker holds unacknowledged when Redis goes: celery 5.7
    # died restoring them ("'NoneType' object has no attribute 'hostname'").
    for n in range(5):
        app.send_task("ops.beacon_fire", args=[f"restart-{n}"], countdown=30)
    time.sleep(1.5)

    redis.kill()
    # During the outage a clocked table falls due; its timed job is lost (``queued``
    # swallows it, as a broker that is down would).
    table, _, _ = two_human_table(make_user, clock=30)
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(seconds=4)
    )
    time.sleep(1.5)
    redis.start()
    back = time.monotonic()

    # The computer plays for the seat whose clock ran out: the sweep on beat, run
    # by the worker that reconnected.
    while Table.objects.get(pk=table.pk).seq == table.seq:
        assert worker.proc.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
        assert time.monotonic() - back < 10, "no move within 10 s of Redis returning"
        time.sleep(0.2)
    assert worker.proc.poll() is None
    assert beat.proc.poll() is None
    assert app.control.ping(destination=["restart@localhost"], timeout=2)
    log = (tmp_path / "worker.log").read_text()
    assert "Unrecoverable error" not in log
