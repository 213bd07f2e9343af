"""Groups by arrival, zones per division, ties and zero-point players."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from leagues.conf import Zone
from leagues.models import Group, Membership, Player
from leagues.ranking import Standing, group_outcomes

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 11, 30, tzinfo=UTC)


def test_65_active_bronze_players_form_groups_of_30_30_5(make_player, finish_table):
    users = [make_player() for _ in range(65)]
    at = MONDAY + timedelta(hours=1)
    for i in range(0, 64, 2):
        at += timedelta(minutes=1)
        finish_table(seats=[users[i], users[i + 1]], places=[1, 2], at=at)
    finish_table(seats=[users[64], "bot"], places=[1, 2], at=at + timedelta(minutes=1))
    groups = list(Group.objects.order_by("number").values_list("number", "size"))
    assert groups == [(1, 30), (2, 30), (3, 5)]
    sizes = [Membership.objects.filter(group__number=n).count() for n in (1, 2, 3)]
    assert sizes == [30, 30, 5]
    # Filled in order of arrival: the first 30 to finish a counted table are group 1.
    first = set(
        Membership.objects.filter(group__number=1).values_list("user", flat=True)
    )
    assert first == {u.pk for u in users[:30]}
    assert set(Group.objects.values_list("division", flat=True)) == {"bronze"}


def test_groups_are_per_division(make_player, finish_table):
    ana, ben = make_player(), make_player()
    Player.objects.create(user=ben, division="gold")
    finish_table(seats=[ana, ben], places=[1, 2], at=MONDAY + timedelta(hours=2))
    assert Membership.objects.get(user=ana).group.division == "bronze"
    assert Membership.objects.get(user=ben).group.division == "gold"
    assert Membership.objects.get(user=ben).division == "gold"


def _row(pk: int, points: str, minute: int, joined: int = 0) -> Standing:
    return Standing(
        id=pk,
        points=Decimal(points),
        reached_at=MONDAY + timedelta(minutes=minute),
        joined_at=MONDAY + timedelta(minutes=joined),
    )


def test_ties_break_by_who_reached_the_points_first():
    rows = [_row(1, "10", 50), _row(2, "10", 20), _row(3, "12", 90), _row(4, "3", 5)]
    out = group_outcomes(rows, Zone(up=1, down=1, rewards=(30, 20)))
    assert {pk: (o.rank, o.result, o.reward) for pk, o in out.items()} == {
        3: (1, "promoted", 30),
        2: (2, "stayed", 20),
        1: (3, "stayed", 0),
        4: (4, "demoted", 0),
    }


def test_zero_point_players_take_no_place_and_do_not_move():
    rows = [_row(1, "0", 1), _row(2, "5", 2), _row(3, "0", 0)]
    out = group_outcomes(rows, Zone(up=0, down=5, rewards=(9,)))
    assert (out[1].rank, out[1].result, out[1].reward) == (None, "stayed", 0)
    assert (out[3].rank, out[3].result) == (None, "stayed")
    assert (out[2].rank, out[2].result, out[2].reward) == (1, "demoted", 9)


def test_zones_never_overlap_in_a_small_group():
    rows = [_row(i, str(10 - i), i) for i in range(1, 5)]
    out = group_outcomes(rows, Zone(up=3, down=3, rewards=()))
    assert [out[i].result for i in range(1, 5)] == [
        "promoted",
        "promoted",
        "promoted",
        "demoted",
    ]


def test_deleted_or_deactivated_accounts_are_not_ranked():
    rows = [
        Standing(
            id=1,
            points=Decimal(50),
            reached_at=MONDAY,
            joined_at=MONDAY,
            eligible=False,
        ),
        _row(2, "5", 2),
    ]
    out = group_outcomes(rows, Zone(up=1, down=0, rewards=(10,)))
    assert out[1].rank is None and out[1].reward == 0
    assert (out[2].rank, out[2].result, out[2].reward) == (1, "promoted", 10)
