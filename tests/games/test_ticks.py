"""Timed jobs reach Celery from the outbox's publisher thread, in order, each after
the frames it follows (``games.ticks``, ``realtime.outbox``)."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from datetime import timedelta

from celery import current_app
from django.utils import timezone

from games.ticks import TICK_TASK, tick_job
from realtime import outbox


def record_publishes(monkeypatch, fail_first: bool = False):
    calls: list[tuple[tuple[int, int], float, str]] = []
    done = threading.Event()

    def send_task(name, args, countdown, ignore_result):
        assert name == TICK_TASK and ignore_result
        if fail_first and not calls:
            calls.append((args, countdown, "failed"))
            raise ConnectionError("broker away")
        calls.append((args, countdown, threading.current_thread().name))
        if len(calls) >= 2:
            done.set()

    monkeypatch.setattr(current_app, "send_task", send_task)
    return calls, done


def post_job(table_id, seq, deadline, sent=None):
    """What the outbox does after a commit: the job waits for ``sent``."""
    outbox._jobs.put((tick_job(table_id, seq, deadline), sent))
    outbox._publisher_ensure()


def test_jobs_are_published_in_order_off_the_calling_thread(monkeypatch):
    calls, done = record_publishes(monkeypatch)
    now = timezone.now()
    post_job(7, 41, now + timedelta(seconds=2))
    post_job(7, 42, now - timedelta(seconds=1))  # overdue: at once
    assert done.wait(5)
    (first, c1, thread1), (second, c2, thread2) = calls
    assert (first, second) == ((7, 41), (7, 42))
    assert 1.5 < c1 <= 2.0
    assert c2 == 0.0
    assert thread1 == thread2 == "outbox-publisher"
    assert threading.current_thread().name != "outbox-publisher"


def test_a_failed_publish_is_logged_and_the_next_job_still_goes(monkeypatch, caplog):
    calls, done = record_publishes(monkeypatch, fail_first=True)
    now = timezone.now()
    post_job(3, 10, now)
    post_job(3, 11, now)
    assert done.wait(5)
    assert [c[0] for c in calls] == [(3, 10), (3, 11)]
    assert "the job after a commit failed" in caplog.text
    assert "seq=10" in caplog.text


def test_a_job_waits_for_the_frames_it_follows(monkeypatch):
    calls, done = record_publishes(monkeypatch)
    frames_sent: concurrent.futures.Future[None] = concurrent.futures.Future()
    now = timezone.now()
    post_job(5, 20, now, sent=frames_sent)
    post_job(5, 21, now)
    time.sleep(0.3)
    assert calls == []  # the first job holds the queue until its frames are out
    frames_sent.set_result(None)
    assert done.wait(5)
    assert [c[0] for c in calls] == [(5, 20), (5, 21)]


def test_no_deadline_no_job():
    assert tick_job(1, 2, None) is None
