"""A worker working through a long queue is alive but behind, not down.

The heartbeat task expires in a long queue, so its stamp goes stale while the
worker sweeps; a worker that still starts tasks is reported ``behind`` with the
queue's length and the age of its oldest task, on ``/healthz`` and ``/metrics``.
"""

from __future__ import annotations

import time
import uuid

import pytest
from django.core.cache import cache

from ops import checks, metrics
from ops.heartbeat import (
    BEAT_KEY,
    WORKER_KEY,
    WORKER_TASK_KEY,
    worker_task_started,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_stamps(monkeypatch):
    from ops import heartbeat

    monkeypatch.setattr(heartbeat, "_task_stamped", 0.0)  # no throttle across tests
    keys = [WORKER_KEY, BEAT_KEY, WORKER_TASK_KEY]
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


@pytest.fixture
def long_queue(monkeypatch):
    """302 tasks waiting, the oldest for 302 s."""
    for module in (checks, metrics):
        monkeypatch.setattr(module, "queue_backlog", lambda queue=None: (302, 302.0))


def test_a_worker_that_starts_tasks_is_behind_not_down(client, long_queue):
    cache.set(WORKER_KEY, time.time() - 302, 600)  # heartbeats expired in the queue
    cache.set(BEAT_KEY, time.time(), 600)
    worker_task_started()

    resp = client.get("/healthz")
    body = resp.json()

    assert resp.status_code == 200, body
    assert body["status"] == "behind"
    assert body["down"] == [] and body["behind"] == ["worker"]
    worker = body["components"]["worker"]
    assert worker["status"] == "behind"
    assert worker["queue"] == 302 and worker["oldest_task_seconds"] == 302.0
    assert "302 tasks queued" in worker["backend"]


def test_a_worker_that_starts_nothing_is_down(client, long_queue):
    cache.set(WORKER_KEY, time.time() - 302, 600)
    cache.set(WORKER_TASK_KEY, time.time() - 302, 600)
    cache.set(BEAT_KEY, time.time(), 600)
    body = client.get("/healthz").json()
    assert body["down"] == ["worker"]
    assert body["components"]["worker"]["error"] == "no worker heartbeat for 302 s"


def test_metrics_show_the_backlog(client, long_queue):
    worker_task_started()
    text = client.get("/metrics").content.decode()
    lines = dict(
        line.rsplit(" ", 1)
        for line in text.splitlines()
        if line.startswith("dominoes_")
    )
    assert float(lines["dominoes_task_queue_length"]) == 302
    assert float(lines["dominoes_task_queue_oldest_seconds"]) == 302.0
    assert float(lines["dominoes_worker_task_age_seconds"]) < 60


@pytest.mark.services
def test_the_backlog_is_read_from_the_broker():
    """Published tasks carry their send time; the queue's oldest is measured."""
    import redis
    from django.conf import settings

    from config.celery import app
    from ops.backlog import queue_backlog

    queue = f"{settings.DEPLOYMENT_PREFIX}.test-backlog-{uuid.uuid4().hex}"
    try:
        assert queue_backlog(queue) == (0, None)
        for _ in range(3):
            app.send_task("ops.heartbeat", queue=queue, ignore_result=True)
        length, oldest = queue_backlog(queue)
        assert length == 3
        assert oldest is not None and 0 <= oldest < 60
    finally:
        redis.Redis.from_url(settings.REDIS_URL).delete(queue)
