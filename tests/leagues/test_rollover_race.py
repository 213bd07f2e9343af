"""Tables that keep finishing while a week closes: each counted once, in one week.

A finish's league step that runs before the close locks the week counts in the
table's own week; the close records every table committed before it looked; a finish
committed after that (later than the grace) counts in the next open week, since a
closed week is final. A place taken in the new week before the old one closed moves
to the division the close gave its player.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import Count, Sum

from games.finish import finish_step_apply
from games.models import FinishStep, Table
from leagues.models import Group, Membership, Player, PointEntry, Week
from leagues.rollover import weeks_rollover
from tests.leagues.conftest import finish
from tests.leagues.test_rollover import W1, small_zones  # noqa: F401 - autouse

pytestmark = pytest.mark.django_db

MONDAY = W1 + timedelta(days=7)


def unfinished(seats) -> Table:
    """A table of ``seats`` still playing (places written, as the last move does)."""
    places = list(range(1, len(seats) + 1))
    table = finish(seats=seats, places=places, at=W1, record=False)
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.PLAYING, finished_at=None
    )
    return table


def table_finish(table: Table, at: datetime) -> None:
    """What the final move's transaction writes for the league: status and step."""
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, finished_at=at
    )
    FinishStep.objects.create(table_id=table.pk, name="league")


def assert_consistent() -> None:
    """Memberships hold exactly their counted entries; places match divisions."""
    entries = (
        PointEntry.objects.filter(counted=True)
        .values("week_id", "user_id")
        .annotate(points=Sum("points"), tables=Count("id"))
    )
    expected = {
        (e["week_id"], e["user_id"]): (e["points"], e["tables"]) for e in entries
    }
    members = {
        (m.week_id, m.user_id): (m.points, m.tables) for m in Membership.objects.all()
    }
    assert members == expected
    for group in Group.objects.all():
        inside = Membership.objects.filter(group=group)
        assert inside.count() == group.size, group
        assert set(inside.values_list("division", flat=True)) <= {group.division}
    division = dict(Player.objects.values_list("user_id", "division"))
    for week in Week.objects.filter(status=Week.Status.OPEN):
        for m in Membership.objects.filter(week=week):
            assert m.division == division[m.user_id], (week, m)


def test_a_place_taken_in_the_new_week_before_the_close_follows_the_close(
    make_player,
):
    ana, ben, cy, dan = (make_player() for _ in range(4))
    finish(seats=[ana, ben], places=[1, 2], at=W1 + timedelta(hours=1))
    finish(seats=[cy, ben], places=[1, 2], at=W1 + timedelta(hours=2))
    # Within the grace, before the rollover: ana still holds Bronze.
    finish(seats=[ana, dan], places=[1, 2], at=MONDAY + timedelta(seconds=5))
    assert Membership.objects.get(user=ana, week__start=MONDAY).division == "bronze"
    weeks_rollover(now=MONDAY + timedelta(seconds=30))
    assert Player.objects.get(user=ana).division == "silver"  # 10, before cy
    place = Membership.objects.get(user=ana, week__start=MONDAY)
    assert (place.division, place.group.division) == ("silver", "silver")
    assert place.points == Decimal("10.0")
    assert Membership.objects.get(user=dan, week__start=MONDAY).division == "bronze"
    assert_consistent()
    # Later tables of the week add to the moved place.
    finish(seats=[ana, dan], places=[1, 2], at=MONDAY + timedelta(hours=1))
    assert Membership.objects.get(pk=place.pk).points == Decimal("20.0")
    assert_consistent()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_finish_committed_after_the_close_counts_once_in_the_next_week(
    make_player,
):
    assert connection.vendor == "postgresql"
    ana, ben, cy = make_player(), make_player(), make_player()
    finish(seats=[ben, cy], places=[1, 2], at=W1 + timedelta(days=1))
    late = unfinished([ana, ben])
    closed = threading.Event()
    errors: list[BaseException] = []

    def final_move() -> None:
        # The final move took its time at 23:59:59.999 and commits after the close.
        try:
            with transaction.atomic():
                table_finish(late, MONDAY - timedelta(milliseconds=1))
                assert closed.wait(30)
            assert finish_step_apply(table_id=late.pk, name="league")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def rollover() -> None:
        try:
            assert weeks_rollover(now=MONDAY + timedelta(seconds=30)) == ["2026-11-16"]
        except BaseException as exc:
            errors.append(exc)
        finally:
            closed.set()
            connection.close()

    threads = [threading.Thread(target=f) for f in (final_move, rollover)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    entries = PointEntry.objects.filter(table_id=late.pk)
    assert sorted(entries.values_list("user_id", "points")) == [
        (ana.pk, Decimal("10.0")),
        (ben.pk, Decimal("3.0")),
    ]
    assert set(entries.values_list("week__start", flat=True)) == {MONDAY}
    old = Membership.objects.get(user=ben, week__start=W1)
    assert (old.points, old.tables, old.rank) == (Decimal("10.0"), 1, 1)
    new = Membership.objects.get(user=ana, week__start=MONDAY)
    assert new.joined_at == MONDAY  # counted from the week it landed in
    assert weeks_rollover(now=MONDAY + timedelta(minutes=5)) == []
    assert_consistent()


def stream_make(people) -> list[tuple[Table, datetime]]:
    """New-week tables of pairs of ``people``, every fifth a late commit of the old
    week (finished at 23:59:59.999)."""
    stream = []
    for n in range(36):
        pair = [people[n % 12], people[(n * 5 + 1) % 12]]
        if pair[0] == pair[1]:
            pair[1] = people[(n + 1) % 12]
        at = (
            MONDAY - timedelta(milliseconds=1)
            if n % 5 == 4
            else MONDAY + timedelta(seconds=n)
        )
        stream.append((unfinished(pair), at))
    return stream


def assert_landed_once(stream: list[tuple[Table, datetime]]) -> None:
    """Every seat counted once; in its own week, or the next when it committed
    after the close looked."""
    weeks = defaultdict(set)
    for table_id, start in PointEntry.objects.values_list("table_id", "week__start"):
        weeks[table_id].add(start)
    for table, at in stream:
        assert PointEntry.objects.filter(table_id=table.pk).count() == 2
        assert weeks[table.pk] <= ({W1, MONDAY} if at < MONDAY else {MONDAY})


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_tables_finishing_through_the_close_land_once(make_player):
    assert connection.vendor == "postgresql"
    people = [make_player() for _ in range(12)]
    for i in range(0, 12, 2):  # last week: six groups of one table each
        finish(
            seats=[people[i], people[i + 1]],
            places=[1, 2],
            at=W1 + timedelta(hours=i + 1),
        )
    stream = stream_make(people)
    waits: dict[int, float] = {}
    errors: list[BaseException] = []
    started = threading.Barrier(3)

    def finisher(share) -> None:
        try:
            started.wait()
            for table, at in share:
                with transaction.atomic():
                    table_finish(table, at)
                t = time.perf_counter()
                assert finish_step_apply(table_id=table.pk, name="league")
                waits[table.pk] = time.perf_counter() - t
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def rollover() -> None:
        try:
            started.wait()
            time.sleep(0.05)  # some new-week places are taken before the close
            weeks_rollover(now=MONDAY + timedelta(seconds=30))
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=finisher, args=(stream[0::2],)),
        threading.Thread(target=finisher, args=(stream[1::2],)),
        threading.Thread(target=rollover),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert len(waits) == len(stream)
    assert not FinishStep.objects.filter(done_at__isnull=True).exists()
    assert not FinishStep.objects.exclude(error="").exists()
    assert_landed_once(stream)
    old = Week.objects.get(start=W1)
    assert old.status == Week.Status.CLOSED
    # The stream straddled the close, so the race was run.
    done = FinishStep.objects.values_list("done_at", flat=True)
    assert min(done) < old.closed_at < max(done)
    ranked = Membership.objects.filter(week__start=W1, points__gt=0)
    assert not ranked.filter(rank__isnull=True).exists()
    assert_consistent()
