"""A table's timed job stores no result: nothing reads one, and each stored result
costs Redis commands on every computer move."""

from __future__ import annotations

from datetime import timedelta

from celery import current_app
from django.utils import timezone

from games.ticks import TICK_TASK, tick_job


def test_a_tick_is_sent_without_a_result(monkeypatch):
    sent = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, **kw: sent.append((name, kw))
    )
    job = tick_job(7, 3, timezone.now() + timedelta(seconds=2))
    assert job is not None
    job()
    [(name, options)] = sent
    assert name == TICK_TASK and options["args"] == (7, 3)
    assert options["ignore_result"] is True
    assert 0 < options["countdown"] <= 2


def test_no_task_of_the_platform_stores_a_result():
    assert current_app.conf.task_ignore_result is True
    assert all(
        task.ignore_result
        for name, task in current_app.tasks.items()
        if not name.startswith("celery.")
    )
