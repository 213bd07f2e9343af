"""A durable finish: the final move's transaction writes what the finish owes; each
consequence is applied once; a crash between the commit and any consequence is
completed by the sweep (DESIGN.md, "Who may import whom")."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone

from economy.audit import ledger_audit
from economy.models import Transaction, XpAward
from games import finish
from games.finish import finish_steps_sweep
from games.models import FinishStep, Table
from games.services import table_practice_create
from leagues.models import PointEntry
from matchmaking.models import RatingChange
from tests.support import server_env
from tests.support.servers import ROOT
from tests.support.tables import drive, two_human_table

# In registration order: "sitgo" and "arena" are owed by every online table and do
# nothing for one no sit-and-go or arena seated (tournaments.sitgo.hooks,
# tournaments.arenas.hooks).
ONLINE_STEPS = ["rewards", "ratings", "conduct", "league", "sitgo", "arena", "swiss"]


def steps_of(table_id: int) -> dict[str, bool]:
    return {
        name: done is not None
        for name, done in FinishStep.objects.filter(table_id=table_id).values_list(
            "name", "done_at"
        )
    }


def backdate_steps() -> None:
    """Make every step old enough for the sweep (it leaves fresh ones alone)."""
    FinishStep.objects.update(created_at=timezone.now() - timedelta(minutes=1))


def applied_once(table_id: int, users) -> None:
    """Every consequence of an online table of two people applied exactly once."""
    for user in users:
        key = f"reward:{table_id}:{user.pk}"
        assert Transaction.objects.filter(key=key).count() == 1
        assert XpAward.objects.filter(key=key).count() == 1
    assert RatingChange.objects.filter(table_id=table_id).count() == len(users)
    assert PointEntry.objects.filter(table_id=table_id).count() == len(users)
    assert ledger_audit() == []


@pytest.mark.django_db
def test_a_crash_after_the_final_commit_is_completed_by_the_sweep(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = two_human_table(make_user, mode="online", target=50)
    # No after-commit callback runs: the process "died" right after the commit.
    with django_capture_on_commit_callbacks(execute=False):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    assert table.status == Table.Status.FINISHED
    assert steps_of(table.pk) == dict.fromkeys(ONLINE_STEPS, False)
    assert not Transaction.objects.filter(kind=Transaction.Kind.REWARD).exists()
    assert finish_steps_sweep() == 0, "fresh steps belong to the after-commit path"
    backdate_steps()
    assert finish_steps_sweep() == len(ONLINE_STEPS)
    assert steps_of(table.pk) == dict.fromkeys(ONLINE_STEPS, True)
    applied_once(table.pk, [ana, ben])
    assert finish_steps_sweep() == 0


@pytest.mark.django_db
def test_a_failing_consequence_is_retried_and_the_others_still_apply(
    make_user, queued, pushes, django_capture_on_commit_callbacks, monkeypatch
):
    real = finish.consequence("ratings")

    def broken(notice):
        real.apply(notice)  # its writes roll back with the failure
        raise RuntimeError("ratings store down")

    monkeypatch.setitem(
        finish._registry, "ratings", finish.Consequence("ratings", broken, real.modes)
    )
    table, ana, ben = two_human_table(make_user, mode="online", target=50)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    assert steps_of(table.pk) == {**dict.fromkeys(ONLINE_STEPS, True), "ratings": False}
    step = FinishStep.objects.get(table=table, name="ratings")
    assert step.attempts == 1 and "ratings store down" in step.error
    assert not RatingChange.objects.exists()
    monkeypatch.setitem(finish._registry, "ratings", real)
    backdate_steps()
    assert finish_steps_sweep() == 1
    applied_once(table.pk, [ana, ben])


@pytest.mark.django_db
def test_practice_owes_nothing_and_writes_no_step(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    user = make_user()
    table = table_practice_create(
        user=user, variant="block", options={"target": 50}, bot_levels=["easy"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: user}, rng=random.Random(2))
    assert table.status == Table.Status.FINISHED
    assert not FinishStep.objects.exists()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("killed_at", ONLINE_STEPS)
def test_a_process_killed_before_each_consequence_loses_nothing(
    make_user, killed_at, monkeypatch
):
    """A real process plays the table to its end and is SIGKILLed right before
    ``killed_at`` runs, after the final move's commit; the sweep completes it."""
    table, ana, ben = two_human_table(make_user, mode="online", target=50)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.support.finish_crash",
            str(table.pk),
            f"{ana.pk},{ben.pk}",
            killed_at,
        ],
        cwd=ROOT,
        env=server_env(),
        capture_output=True,
        timeout=240,
    )
    assert proc.returncode == -9, proc.stderr.decode()[-2000:]
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    done = steps_of(table.pk)
    before = ONLINE_STEPS[: ONLINE_STEPS.index(killed_at)]
    assert done == {name: name in before for name in ONLINE_STEPS}
    backdate_steps()
    assert finish_steps_sweep() == len(ONLINE_STEPS) - len(before)
    assert all(steps_of(table.pk).values())
    applied_once(table.pk, [ana, ben])
    assert finish_steps_sweep() == 0
