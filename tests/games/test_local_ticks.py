"""Light timed jobs run on the socket server that queued them, without a Celery task
(``games.local_ticks``); heavy ones, and every job elsewhere, still go to Celery."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.services import table_act, table_practice_create
from games.services.transitions import job_of
from games.ticks import TICK_TASK, tick_job
from realtime import outbox
from tests.support.loops import loop_thread


@pytest.fixture
def server_loop(monkeypatch):
    """A running loop in its own thread, registered as daphne's would be."""
    monkeypatch.setattr(outbox, "_server_loop", None)
    with loop_thread() as loop:
        outbox.server_loop_register(loop)
        yield loop


@pytest.fixture
def published(monkeypatch):
    """The Celery tasks published, instead of a broker."""
    sent: list[tuple[str, tuple[int, int], float]] = []

    def send_task(name, args, countdown, ignore_result):
        sent.append((name, tuple(args), countdown))

    monkeypatch.setattr(current_app, "send_task", send_task)
    return sent


@pytest.fixture
def body(monkeypatch):
    """The tick task's body, recording where and when it runs."""
    ran: list[tuple[int, int, str, float]] = []
    done = threading.Event()
    task = current_app.tasks[TICK_TASK]

    def run(table_id, seq):
        ran.append((table_id, seq, threading.current_thread().name, time.monotonic()))
        done.set()

    monkeypatch.setattr(task, "run", run)
    return ran, done


def test_a_light_job_runs_on_the_server_after_its_countdown(
    server_loop, published, body
):
    ran, done = body
    start = time.monotonic()
    tick_job(7, 12, timezone.now() + timedelta(seconds=0.3), local=True)()
    assert published == []
    assert done.wait(5)
    ((table_id, seq, thread, at),) = ran
    assert (table_id, seq) == (7, 12)
    assert at - start >= 0.25  # not before its time
    # In the loop's thread pool, as a socket's own move: not on this thread.
    assert thread != threading.current_thread().name
    assert server_loop.is_running()


def test_a_heavy_job_goes_to_celery_even_on_a_server(server_loop, published, body):
    ran, _ = body
    tick_job(7, 13, timezone.now() + timedelta(seconds=1))()
    assert [(name, args) for name, args, _ in published] == [(TICK_TASK, (7, 13))]
    assert 0.5 < published[0][2] <= 1.0
    time.sleep(0.1)
    assert ran == []


def test_off_the_server_or_with_the_setting_off_a_light_job_goes_to_celery(
    monkeypatch, settings, published, body
):
    ran, _ = body
    monkeypatch.setattr(outbox, "_server_loop", None)
    tick_job(3, 4, timezone.now(), local=True)()  # a worker, a command, a test
    assert [args for _, args, _ in published] == [(3, 4)]
    settings.GAMES_LOCAL_TICKS = False
    with loop_thread() as loop:
        outbox.server_loop_register(loop)
        tick_job(3, 5, timezone.now(), local=True)()
    assert [args for _, args, _ in published] == [(3, 4), (3, 5)]
    assert ran == []


def test_a_job_that_fails_here_is_logged_and_the_server_goes_on(
    server_loop, published, monkeypatch, caplog
):
    task = current_app.tasks[TICK_TASK]
    done = threading.Event()

    def run(table_id, seq):
        done.set()
        raise RuntimeError("database away")

    monkeypatch.setattr(task, "run", run)
    tick_job(9, 1, timezone.now(), local=True)()
    assert done.wait(5)
    deadline = time.monotonic() + 5
    while "the timed job at seq 1 failed" not in caplog.text:
        assert time.monotonic() < deadline, caplog.text
        time.sleep(0.02)
    assert server_loop.is_running()
    assert published == []


def _table(timer, timer_seat=None):
    return Table(
        pk=5,
        seq=8,
        timer=timer,
        timer_seat=timer_seat,
        deadline=timezone.now() + timedelta(seconds=1),
    )


def _seats(*levels):
    return [Seat(position=i, bot_level=level) for i, level in enumerate(levels)]


def test_only_a_hard_computers_move_is_heavy():
    seats = _seats("", "hard", "medium", "easy")
    assert job_of(_table(Table.Timer.BOT, 1), seats).local is False
    assert job_of(_table(Table.Timer.BOT, 2), seats).local is True
    assert job_of(_table(Table.Timer.BOT, 3), seats).local is True
    assert job_of(_table(Table.Timer.NEXT_HAND), seats).local is True
    assert job_of(_table(Table.Timer.DEAL), seats).local is True
    assert job_of(_table(Table.Timer.CLOCK, 0), seats) is None  # the clock sweep's


@pytest.mark.django_db(transaction=True)
def test_on_a_server_the_computer_answers_a_move_without_celery(
    server_loop, published, make_user
):
    user = make_user()
    table = table_practice_create(
        user=user, variant="block", bot_levels=["easy"], bot_speed="instant"
    )
    moved: int | None = None  # the seq of the person's first move
    deadline = time.monotonic() + 10
    # The person plays whenever it is their turn (as the deal allows) until the
    # computer has answered their first move.
    while moved is None or not table.events.filter(seq__gt=moved, actor="bot"):
        assert time.monotonic() < deadline, "the computer never answered"
        table.refresh_from_db()
        state = engine.from_json(table.state)
        if engine.current_seat(state) == 0 and table.timer != Table.Timer.BOT:
            table_act(
                table_id=table.pk,
                user=user,
                action=engine.action_to_dict(engine.legal_actions(state, 0)[0]),
                expected_seq=table.seq,
            )
            moved = moved or table.seq + 1
        time.sleep(0.05)
    assert published == []
