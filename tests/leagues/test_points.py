"""League points: golden cases per table shape, weights, modes, idempotency, limits."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from games.finish import finish_notice
from games.models import Table
from games.services import seat_join, table_create, table_start
from leagues.models import Membership, PointEntry
from leagues.receivers import points_on_finish
from leagues.services import table_points_record
from tests.support.tables import drive

pytestmark = pytest.mark.django_db

TUESDAY = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def points_of(user) -> Decimal:
    m = Membership.objects.filter(user=user).first()
    return m.points if m else Decimal(0)


@pytest.mark.parametrize(
    ("size", "partnership", "places", "expected"),
    [
        (2, False, [1, 2], ["10.0", "3.0"]),
        (2, False, [2, 1], ["3.0", "10.0"]),
        (3, False, [2, 1, 3], ["5.0", "10.0", "2.0"]),
        (4, False, [4, 3, 2, 1], ["1.0", "3.0", "6.0", "10.0"]),
        (4, True, [1, 2, 1, 2], ["8.0", "2.0", "8.0", "2.0"]),
    ],
)
def test_points_by_shape_and_place(
    make_player, finish_table, size, partnership, places, expected
):
    users = [make_player() for _ in range(size)]
    finish_table(seats=users, places=places, at=TUESDAY, partnership=partnership)
    assert [str(points_of(u)) for u in users] == expected
    assert all(Membership.objects.get(user=u).tables == 1 for u in users)


def test_stake_table_earns_more(make_player, finish_table, settings, monkeypatch):
    settings.LEAGUE_STAKE_BONUS = {250: 4}
    monkeypatch.setattr("leagues.services.stake_of", lambda table: 250)
    ana, ben = make_player(), make_player()
    finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY, mode="stake")
    assert (points_of(ana), points_of(ben)) == (Decimal("14.0"), Decimal("7.0"))


def test_stake_read_from_the_pot_escrow(make_player, finish_table, settings):
    from economy.ledger import escrow_ensure
    from economy.models import Account
    from leagues.stakes import stake_of

    ana, ben = make_player(), make_player()
    table = finish_table(
        seats=[ana, ben], places=[1, 2], at=TUESDAY, mode="stake", record=False
    )
    assert stake_of(table) is None
    escrow_ensure(table_ref=str(table.pk))
    Account.objects.filter(table_ref=str(table.pk)).update(entry_fee=500)
    assert stake_of(table) == 500
    table_points_record(table_id=table.pk)
    assert points_of(ana) == Decimal("16.0")  # 10 + 6 for a 500 stake


def test_backfilled_table_counts_half_and_bots_get_nothing(make_player, finish_table):
    ana = make_player()
    table = finish_table(seats=[ana, "bot"], places=[2, 1], at=TUESDAY)
    assert points_of(ana) == Decimal("1.5")
    entries = list(PointEntry.objects.filter(table_id=table.pk))
    assert [(e.position, e.weight) for e in entries] == [(0, Decimal("0.50"))]


@pytest.mark.parametrize("mode", ["practice", "friend"])
def test_practice_and_friend_rooms_give_nothing(make_player, finish_table, mode):
    ana, ben = make_player(), make_player()
    if mode == "practice":
        table = finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY, record=False)
        Table.objects.filter(pk=table.pk).update(mode="practice")
        table_points_record(table_id=table.pk)
    else:
        finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY, mode=mode)
    assert not PointEntry.objects.exists()
    assert not Membership.objects.exists()


def test_recorded_once_even_if_applied_twice(make_player, finish_table):
    ana, ben = make_player(), make_player()
    table = finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY)
    for _ in range(2):
        points_on_finish(finish_notice(table.pk))
    assert PointEntry.objects.filter(table_id=table.pk).count() == 2
    assert (points_of(ana), points_of(ben)) == (Decimal("10.0"), Decimal("3.0"))
    assert Membership.objects.get(user=ana).tables == 1


def test_same_two_accounts_count_three_tables_a_day(make_player, finish_table):
    ana, ben, cy = make_player(), make_player(), make_player()
    for i in range(4):
        finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY + timedelta(minutes=i))
    assert points_of(ana) == Decimal("30.0")
    assert Membership.objects.get(user=ana).tables == 3
    assert PointEntry.objects.filter(user=ana, counted=False).count() == 1
    # Another opponent still counts that day, and the pair counts again the next day.
    finish_table(seats=[ana, cy], places=[1, 2], at=TUESDAY + timedelta(hours=1))
    finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY + timedelta(days=1))
    assert points_of(ana) == Decimal("50.0")


def test_week_by_finish_time_in_utc(make_player, finish_table):
    ana, ben = make_player(), make_player()
    sunday_late = datetime(2026, 12, 6, 23, 59, 59, 999000, tzinfo=UTC)
    monday = datetime(2026, 12, 7, 0, 0, 0, tzinfo=UTC)
    finish_table(seats=[ana, ben], places=[1, 2], at=sunday_late)
    finish_table(seats=[ana, ben], places=[2, 1], at=monday)
    weeks = dict(
        Membership.objects.filter(user=ana).values_list("week__start", "points")
    )
    assert weeks == {
        datetime(2026, 11, 30, tzinfo=UTC): Decimal("10.0"),
        datetime(2026, 12, 7, tzinfo=UTC): Decimal("3.0"),
    }


@pytest.mark.django_db(transaction=True)
def test_real_online_table_played_to_the_end_adds_points(make_player):
    ana, ben = make_player("ana"), make_player("ben")
    table = table_create(
        mode="online", variant="draw", options={"target": 50}, hand_pause_seconds=0
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, user=ben)
    table_start(table_id=table.pk)
    finished = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(7))
    assert finished.status == Table.Status.FINISHED
    entries = {e.user_id: e for e in PointEntry.objects.filter(table_id=table.pk)}
    assert set(entries) == {ana.pk, ben.pk}
    winner = 1 if entries[ana.pk].place == 1 else 2
    assert winner in (1, 2)
    assert sorted(str(e.points) for e in entries.values()) == ["10.0", "3.0"]
    assert sum(m.points for m in Membership.objects.all()) == Decimal("13.0")


def test_points_remove_explains_what_it_refuses(make_player, finish_table):
    from leagues.errors import LeagueError
    from leagues.models import Correction, Week
    from leagues.services import points_remove

    ana, ben, op = make_player(), make_player(), make_player()
    finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY)
    place = Membership.objects.get(user=ana)
    with pytest.raises(LeagueError, match="Give a reason"):
        points_remove(membership_id=place.pk, reason="  ", operator_id=op.pk)
    points_remove(membership_id=place.pk, reason="collusion", operator_id=op.pk)
    with pytest.raises(LeagueError, match="no points to remove"):
        points_remove(membership_id=place.pk, reason="again", operator_id=op.pk)
    Week.objects.update(status="closed")
    with pytest.raises(LeagueError, match="results are final"):
        points_remove(membership_id=place.pk, reason="late", operator_id=op.pk)
    assert Correction.objects.count() == 1
    assert PointEntry.objects.filter(user=ana).get().points == Decimal("10.0")
