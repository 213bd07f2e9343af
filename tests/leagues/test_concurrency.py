"""Points and group places under real concurrency on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from leagues.models import Group, Membership, PointEntry
from leagues.services import table_points_record
from tests.support.threads import at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TUESDAY = datetime(2026, 12, 1, 12, tzinfo=UTC)


def test_two_deliveries_at_once_record_the_table_once(make_player, finish_table):
    ana, ben = make_player(), make_player()
    table = finish_table(seats=[ana, ben], places=[1, 2], at=TUESDAY, record=False)
    results = at_once([lambda: table_points_record(table_id=table.pk)] * 4)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(len(r) for r in results) == [0, 0, 0, 2]  # type: ignore[arg-type]
    assert PointEntry.objects.filter(table_id=table.pk).count() == 2
    assert Membership.objects.get(user=ana).points == Decimal("10.0")
    assert Membership.objects.get(user=ana).tables == 1


def test_concurrent_first_arrivals_fill_groups_exactly(make_player, finish_table):
    tables = []
    for i in range(20):
        pair = [make_player(), make_player()]
        tables.append(
            finish_table(
                seats=pair,
                places=[1, 2],
                at=TUESDAY + timedelta(seconds=i),
                record=False,
            )
        )
    chunks = [tables[i::4] for i in range(4)]

    def record(chunk=None) -> int:
        return sum(len(table_points_record(table_id=t.pk)) for t in chunk)

    results = at_once([lambda c=c: record(c) for c in chunks])
    assert not [r for r in results if isinstance(r, Exception)], results
    groups = list(Group.objects.order_by("number").values_list("number", "size"))
    assert groups == [(1, 30), (2, 10)]
    for number, size in groups:
        assert Membership.objects.filter(group__number=number).count() == size
