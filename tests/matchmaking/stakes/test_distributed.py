"""A real Celery worker enforces the fill deadline; with the worker killed, the sweep
on the beat schedule does, and every entry is refunded exactly once either way."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from django.conf import settings
from django.utils import timezone

from economy.selectors import pot_state, wallet_balance
from games.models import Table
from matchmaking.models import StakeTable
from matchmaking.stakes.services import stake_sit
from tests.matchmaking.stakes.helpers import assert_sound, fund, kinds_of
from tests.support import database_url_of_tests
from tests.support.servers import BIN, ROOT, Server, celery_worker_start

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

FILL_SECONDS = 8


def stack_env() -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of_tests(),
        # The tasks this process queues go to the worker's queue.
        "DEPLOYMENT_PREFIX": settings.DEPLOYMENT_PREFIX,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def half_filled_table(ana, ben):
    fund(ana.pk, 250)
    fund(ben.pk, 250)
    row = stake_sit(user=ana, stake=250, shape="draw-4p")
    stake_sit(user=ben, stake=250, shape="draw-4p", table_id=row.pk)
    assert wallet_balance(user_id=ana.pk) == 0
    return row.pk, ana, ben


def wait_cancelled(table_id: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if StakeTable.objects.get(pk=table_id).state == StakeTable.State.CANCELLED:
            return
        time.sleep(0.2)
    raise AssertionError(f"table not cancelled within {timeout} s")


def assert_refunded_once(table_id: int, ana, ben) -> None:
    assert Table.objects.get(pk=table_id).status == Table.Status.CANCELLED
    assert pot_state(table_ref=str(table_id)) == "refunded"
    assert kinds_of("refund", table_id) == 2
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 250
    assert_sound()


def test_a_real_worker_cancels_an_unfilled_table_at_its_deadline(
    make_user, settings, tmp_path
):
    ana, ben = make_user(), make_user()
    settings.STAKE_FILL_SECONDS = FILL_SECONDS
    worker = celery_worker_start(
        stack_env(), name=f"stakes-{os.getpid()}", log=tmp_path / "w.log"
    )
    try:
        table_id, ana, ben = half_filled_table(ana, ben)
        assert StakeTable.objects.get(pk=table_id).state == StakeTable.State.OPEN
        wait_cancelled(table_id, timeout=FILL_SECONDS + 15)
        time.sleep(1)  # anything running twice would have run by now
    finally:
        worker.stop()
    assert_refunded_once(table_id, ana, ben)
    assert StakeTable.objects.get(pk=table_id).reason == "unfilled"


def test_with_the_worker_killed_the_beat_sweep_cancels_and_refunds(
    make_user, settings, tmp_path
):
    assert "matchmaking-stake-sweep" in settings.CELERY_BEAT_SCHEDULE
    ana, ben = make_user(), make_user()
    settings.STAKE_FILL_SECONDS = FILL_SECONDS
    env = stack_env()
    first = celery_worker_start(
        env, name=f"stakes-a-{os.getpid()}", log=tmp_path / "a.log"
    )
    table_id, ana, ben = half_filled_table(ana, ben)
    time.sleep(1)  # the worker has taken the timed task and holds it until due
    first.kill()
    row = StakeTable.objects.get(pk=table_id)
    assert row.state == StakeTable.State.OPEN
    time.sleep(max(0.0, (row.fill_deadline - timezone.now()).total_seconds()) + 1)
    # Normally still open: the killed worker held the timed task. The suite's own
    # worker (``celery_worker_running``) shares the queue and may have taken it
    # first; then the table is cancelled already and the checks below still hold.
    assert StakeTable.objects.get(pk=table_id).state in (
        StakeTable.State.OPEN,
        StakeTable.State.CANCELLED,
    )
    # A new worker with beat: the lost task stays lost; the sweep cancels the table.
    log = open(tmp_path / "b.log", "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--beat",
            f"--schedule={tmp_path / 'beat-schedule'}",
            "--pool=threads",
            "--concurrency=2",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            "-n",
            f"stakes-b-{os.getpid()}@localhost",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_cancelled(table_id, timeout=40)
        time.sleep(6)  # one more sweep: it must find nothing to do
    finally:
        Server(proc).stop()
        log.close()
    assert_refunded_once(table_id, ana, ben)
