"""The rollover: idempotent, concurrent, late, at the week's boundary, rewards once."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection

from economy.audit import ledger_audit
from economy.models import Transaction
from economy.selectors import wallet_balance
from games.models import Table
from leagues import conf, rollover, tasks
from leagues.models import Group, Membership, Player, PointEntry, Week
from leagues.ranking import Outcome, Standing, group_outcomes
from leagues.rollover import weeks_rollover
from leagues.services import table_points_record
from tests.leagues.test_concurrency import at_once

pytestmark = pytest.mark.django_db

DIVISIONS = ["bronze", "silver", "gold", "platinum", "diamond"]

W1 = datetime(2026, 11, 16, tzinfo=UTC)  # a Monday
ZONES = {
    "bronze": {"up": 1, "down": 0, "rewards": [50, 30]},
    "silver": {"up": 1, "down": 1, "rewards": [75, 45]},
    "gold": {"up": 1, "down": 1, "rewards": [100]},
    "platinum": {"up": 1, "down": 1, "rewards": [150]},
    "diamond": {"up": 0, "down": 1, "rewards": [200]},
}


@pytest.fixture(autouse=True)
def small_zones(settings):
    settings.LEAGUE_ZONES = ZONES
    settings.LEAGUE_CLOSE_GRACE_SECONDS = 10


def final_state() -> list[tuple[object, ...]]:
    members = Membership.objects.order_by("week__start", "user_id").values_list(
        "week__start", "user_id", "rank", "result", "reward", "points"
    )
    players = Player.objects.order_by("user_id").values_list("user_id", "division")
    league_tx = Transaction.objects.filter(key__startswith="league:").order_by("key")
    return [*members, *players, *league_tx.values_list("key", flat=True)]


def play_week(make_player, finish_table, start: datetime, players=None):
    """Three players: ana beats ben twice, ben beats cy once (ana 20, ben 13, cy 3)."""
    ana, ben, cy = players or (make_player(), make_player(), make_player())
    finish_table(seats=[ana, ben], places=[1, 2], at=start + timedelta(hours=1))
    finish_table(seats=[ana, ben], places=[1, 2], at=start + timedelta(hours=2))
    finish_table(seats=[ben, cy], places=[1, 2], at=start + timedelta(hours=3))
    return ana, ben, cy


def test_close_ranks_moves_and_pays_once_when_run_twice(make_player, finish_table):
    ana, ben, cy = play_week(make_player, finish_table, W1)
    after = W1 + timedelta(days=7, minutes=1)
    assert weeks_rollover(now=after) == ["2026-11-16"]
    state = final_state()
    assert weeks_rollover(now=after) == []
    assert final_state() == state
    ranks = dict(Membership.objects.values_list("user_id", "rank"))
    assert ranks == {ana.pk: 1, ben.pk: 2, cy.pk: 3}
    assert Player.objects.get(user=ana).division == "silver"
    assert Player.objects.get(user=cy).division == "bronze"  # Bronze demotes nobody
    assert (wallet_balance(user_id=ana.pk), wallet_balance(user_id=ben.pk)) == (50, 30)
    assert wallet_balance(user_id=cy.pk) == 0
    assert Transaction.objects.filter(key=f"league:2026-11-16:{ana.pk}").count() == 1
    week = Week.objects.get(start=W1)
    assert week.status == "closed" and week.paid_at is not None
    assert ledger_audit() == []


def test_three_missed_weeks_close_in_order(make_player, finish_table):
    players = play_week(make_player, finish_table, W1)
    for n in (1, 2):
        play_week(make_player, finish_table, W1 + timedelta(days=7 * n), players)
    late = W1 + timedelta(days=23)  # Thursday of the fourth week
    assert weeks_rollover(now=late) == ["2026-11-16", "2026-11-23", "2026-11-30"]
    closed_at = list(
        Week.objects.filter(status="closed").order_by("start").values_list("closed_at")
    )
    assert closed_at == sorted(closed_at)
    assert Week.objects.get(start=W1 + timedelta(days=21)).status == "open"
    ana = players[0]
    # Each week pays its own reward, under its own key, in the division the close
    # of the week before gave her: Bronze 50, Silver 75, Gold 100.
    assert wallet_balance(user_id=ana.pk) == 225
    divisions = Membership.objects.filter(user=ana).order_by("week__start")
    assert list(divisions.values_list("division", flat=True)) == [
        "bronze",
        "silver",
        "gold",
    ]
    # Ben (second, then first of Bronze) 30 + 50 + 75; cy 0 + 30 + 50.
    assert Transaction.objects.filter(key__startswith="league:").count() == 8
    state = final_state()
    assert weeks_rollover(now=late) == []
    assert final_state() == state
    assert ledger_audit() == []


def test_an_empty_week_closes_and_pays_nothing():
    Week.objects.create(start=W1)
    assert weeks_rollover(now=W1 + timedelta(days=8)) == ["2026-11-16"]
    assert not Transaction.objects.filter(key__startswith="league:").exists()
    assert Week.objects.get(start=W1).paid_at is not None
    assert ledger_audit() == []


def test_rollover_within_the_grace_waits_for_late_commits(make_player, finish_table):
    play_week(make_player, finish_table, W1)
    monday = W1 + timedelta(days=7)
    assert weeks_rollover(now=monday + timedelta(seconds=5)) == []
    assert rollover.rollover_wait(now=monday + timedelta(seconds=5)) == 5.0
    assert weeks_rollover(now=monday + timedelta(seconds=10)) == ["2026-11-16"]
    assert rollover.rollover_wait(now=monday + timedelta(seconds=11)) == 0.0


def test_the_task_reschedules_itself_inside_the_grace(
    make_player, finish_table, monkeypatch
):
    play_week(make_player, finish_table, W1)
    monday = W1 + timedelta(days=7)
    monkeypatch.setattr(rollover.timezone, "now", lambda: monday)
    queued: list[float] = []
    monkeypatch.setattr(
        tasks.leagues_rollover,
        "apply_async",
        lambda countdown: queued.append(countdown),
    )
    assert tasks.leagues_rollover.run() == []
    assert queued == [10.0]
    monkeypatch.setattr(
        rollover.timezone, "now", lambda: monday + timedelta(seconds=10)
    )
    assert tasks.leagues_rollover.run() == ["2026-11-16"]


def test_boundary_last_millisecond_of_sunday_and_first_of_monday(
    make_player, finish_table
):
    ana, ben = make_player(), make_player()
    monday = W1 + timedelta(days=7)
    finish_table(seats=[ana, ben], places=[1, 2], at=monday - timedelta(milliseconds=1))
    finish_table(seats=[ana, ben], places=[2, 1], at=monday)
    weeks_rollover(now=monday + timedelta(minutes=1))
    old = Membership.objects.get(user=ana, week__start=W1)
    new = Membership.objects.get(user=ana, week__start=monday)
    assert (old.points, old.rank, old.reward) == (Decimal("10.0"), 1, 50)
    assert (new.points, new.rank) == (Decimal("3.0"), None)
    assert Week.objects.get(start=monday).status == "open"


def test_a_table_finishing_during_the_rollover_counts_once_in_its_week(
    make_player, finish_table
):
    ana, ben, cy = make_player(), make_player(), make_player()
    monday = W1 + timedelta(days=7)
    finish_table(seats=[ben, cy], places=[1, 2], at=W1 + timedelta(days=1))
    # Finished at 23:59:59.5; its receiver had not run when the rollover started.
    late = finish_table(
        seats=[ana, ben],
        places=[1, 2],
        at=monday - timedelta(milliseconds=500),
        record=False,
    )
    weeks_rollover(now=monday + timedelta(seconds=30))
    assert table_points_record(table_id=late.pk) == []  # the receiver, afterwards
    assert PointEntry.objects.filter(table_id=late.pk).count() == 2
    old = Membership.objects.get(user=ana, week__start=W1)
    assert (old.points, old.rank) == (Decimal("10.0"), 2)  # ben: 10 + 3
    assert not Membership.objects.filter(week__start=monday).exists()


def test_a_deleted_player_is_dropped_from_the_ranks(make_player, finish_table):
    ana, ben, cy = make_player(), make_player(), make_player()
    table = finish_table(seats=[ana, ben], places=[1, 2], at=W1 + timedelta(hours=1))
    finish_table(seats=[ben, cy], places=[1, 2], at=W1 + timedelta(hours=2))
    Table.objects.filter(pk=table.pk).delete()  # seats protect an account
    ana.delete()
    weeks_rollover(now=W1 + timedelta(days=8))
    ranks = dict(Membership.objects.values_list("user_id", "rank"))
    assert ranks == {None: None, ben.pk: 1, cy.pk: 2}
    assert wallet_balance(user_id=ben.pk) == 50
    assert ledger_audit() == []


def test_zones_moving_past_the_top_or_bottom_division_move_nobody_past_it(
    settings, make_player, finish_table
):
    settings.LEAGUE_ZONES = {
        **ZONES,
        "bronze": {"up": 1, "down": 1, "rewards": [50]},
        "diamond": {"up": 1, "down": 1, "rewards": [200]},
    }
    ana, ben, cy, dee = (make_player() for _ in range(4))
    Player.objects.bulk_create(
        [Player(user=ana, division="diamond"), Player(user=ben, division="diamond")]
    )
    finish_table(seats=[ana, ben], places=[1, 2], at=W1 + timedelta(hours=1))
    finish_table(seats=[cy, dee], places=[1, 2], at=W1 + timedelta(hours=2))
    assert weeks_rollover(now=W1 + timedelta(days=8)) == ["2026-11-16"]
    results = dict(Membership.objects.values_list("user_id", "result"))
    assert results == {
        ana.pk: "promoted",
        ben.pk: "demoted",
        cy.pk: "promoted",
        dee.pk: "demoted",
    }
    divisions = dict(Player.objects.values_list("user_id", "division"))
    assert divisions == {
        ana.pk: "diamond",  # nowhere above Diamond
        ben.pk: "platinum",
        cy.pk: "silver",
        dee.pk: "bronze",  # nowhere below Bronze
    }
    assert ledger_audit() == []


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_rollovers_at_once_on_postgresql(make_player, finish_table):
    assert connection.vendor == "postgresql"
    players = play_week(make_player, finish_table, W1)
    play_week(make_player, finish_table, W1 + timedelta(days=7), players)
    after = W1 + timedelta(days=14, hours=1)
    results = at_once([lambda: weeks_rollover(now=after)] * 2)
    assert not [r for r in results if isinstance(r, Exception)], results
    closed = sorted(k for r in results for k in r)  # type: ignore[union-attr]
    assert closed == ["2026-11-16", "2026-11-23"]
    assert wallet_balance(user_id=players[0].pk) == 50 + 75  # Bronze, then Silver
    assert Transaction.objects.filter(key__startswith="league:").count() == 5
    assert ledger_audit() == []


def test_the_embedded_beat_scheduler_fires_the_rollover_at_monday_midnight():
    from celery.beat import Scheduler
    from celery.schedules import crontab

    from config.celery import app

    scheduler = Scheduler(app=app, lazy=True)
    scheduler.setup_schedule()
    entry = scheduler.schedule["leagues-rollover"]
    assert entry.task == "leagues.rollover"
    sched = entry.schedule
    assert isinstance(sched, crontab)
    assert (sched.minute, sched.hour, sched.day_of_week) == ({0}, {0}, {1})
    sunday = datetime(2026, 11, 29, 23, 59, 59, tzinfo=UTC)
    for now, due in [
        (datetime(2026, 11, 30, 0, 0, 0, 500000, tzinfo=UTC), True),
        (datetime(2026, 11, 29, 23, 59, 59, 999000, tzinfo=UTC), False),
        (
            datetime(2026, 11, 30, 0, 1, tzinfo=UTC),
            True,
        ),  # missed by a minute: still due
    ]:
        sched.nowfun = lambda now=now: now
        assert sched.is_due(sunday - timedelta(days=1)).is_due is due
    # The hourly catch-up runs every hour: after a downtime, within the hour.
    catch_up = scheduler.schedule["leagues-rollover-catch-up"].schedule
    assert catch_up.minute == {17} and len(catch_up.hour) == 24


def test_the_close_ranks_as_the_pure_ranking_does(make_player):
    """Many groups of every division with tied points and moments, players without
    points, a closed account and a deleted one: the close (set-based on PostgreSQL)
    gives each place the rank, result and reward of ``ranking.group_outcomes``, and
    moves divisions by them."""
    rng = random.Random(32)
    week = Week.objects.create(start=W1)
    expected: dict[int, Outcome] = {}
    divisions: dict[int, str] = {}
    for number, division in enumerate(DIVISIONS * 4, start=1):
        group = Group.objects.create(week=week, division=division, number=number)
        rows = []
        for _ in range(rng.randrange(1, 11)):
            user = make_player()
            Player.objects.create(user=user, division=division)
            joined = W1 + timedelta(hours=rng.randrange(4))
            member = Membership.objects.create(
                week=week,
                group=group,
                user=user,
                division=division,
                points=Decimal(rng.choice([0, 3, 5, 5, 10])),
                tables=1,
                joined_at=joined,
                reached_at=joined + timedelta(hours=rng.randrange(3)),
            )
            active = rng.random() > 0.1
            if not active:
                type(user).objects.filter(pk=user.pk).update(is_active=False)
            divisions[user.pk] = division
            rows.append(
                Standing(
                    id=member.pk,
                    points=member.points,
                    reached_at=member.reached_at,
                    joined_at=member.joined_at,
                    eligible=active,
                )
            )
        expected.update(group_outcomes(rows, conf.zone(division)))
    gone = Membership.objects.filter(week=week).order_by("pk").first()
    assert gone is not None and gone.user is not None
    del divisions[gone.user.pk]
    gone.user.delete()  # its place stays, empty: unranked
    expected[gone.pk] = Outcome(rank=None, result="stayed", reward=0)
    assert weeks_rollover(now=W1 + timedelta(days=8)) == ["2026-11-16"]
    got = {
        pk: Outcome(rank=rank, result=result, reward=reward)
        for pk, rank, result, reward in Membership.objects.filter(
            week=week
        ).values_list("pk", "rank", "result", "reward")
    }
    assert got == expected
    assert sum(o.result == "promoted" for o in got.values()) > 3
    assert sum(o.result == "demoted" for o in got.values()) > 3
    step = {"promoted": 1, "demoted": -1, "stayed": 0}
    moved = {
        m.user_id: DIVISIONS[DIVISIONS.index(m.division) + step[m.result]]
        for m in Membership.objects.filter(week=week, user__isnull=False)
    }
    assert dict(Player.objects.values_list("user_id", "division")) == moved
