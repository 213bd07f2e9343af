"""``games.ticks``: timed jobs reach Celery from the publisher thread, in order."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from datetime import timedelta

from django.utils import timezone

from games import ticks
from games.tasks import table_tick_task


def record_publishes(monkeypatch, fail_first: bool = False):
    calls: list[tuple[tuple[int, int], float, str]] = []
    done = threading.Event()

    def apply_async(args, countdown):
        if fail_first and not calls:
            calls.append((args, countdown, "failed"))
            raise ConnectionError("broker away")
        calls.append((args, countdown, threading.current_thread().name))
        if len(calls) >= 2:
            done.set()

    monkeypatch.setattr(table_tick_task, "apply_async", apply_async)
    return calls, done


def test_jobs_are_published_in_order_off_the_calling_thread(monkeypatch):
    calls, done = record_publishes(monkeypatch)
    now = timezone.now()
    ticks.tick_publish(7, 41, now + timedelta(seconds=2))
    ticks.tick_publish(7, 42, now - timedelta(seconds=1))  # overdue: at once
    assert done.wait(5)
    (first, c1, thread1), (second, c2, thread2) = calls
    assert (first, second) == ((7, 41), (7, 42))
    assert 1.5 < c1 <= 2.0
    assert c2 == 0.0
    assert thread1 == thread2 == "tick-publisher"
    assert threading.current_thread().name != "tick-publisher"


def test_a_failed_publish_is_logged_and_the_next_job_still_goes(monkeypatch, caplog):
    calls, done = record_publishes(monkeypatch, fail_first=True)
    now = timezone.now()
    ticks.tick_publish(3, 10, now)
    ticks.tick_publish(3, 11, now)
    assert done.wait(5)
    assert [c[0] for c in calls] == [(3, 10), (3, 11)]
    assert "could not queue the job for seq 10" in caplog.text


def test_a_job_waits_for_the_frames_it_follows(monkeypatch):
    calls, done = record_publishes(monkeypatch)
    frames_sent: concurrent.futures.Future[None] = concurrent.futures.Future()
    now = timezone.now()
    ticks.tick_publish(5, 20, now, after=[frames_sent])
    ticks.tick_publish(5, 21, now)
    time.sleep(0.3)
    assert calls == []  # the first job holds the queue until its frames are out
    frames_sent.set_result(None)
    assert done.wait(5)
    assert [c[0] for c in calls] == [(5, 20), (5, 21)]
