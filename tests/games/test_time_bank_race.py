"""The time bank under real concurrency on PostgreSQL: a player's move racing the
job that runs their bank out, and the same job delivered several times at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.services import table_act, table_tick
from tests.games.test_time_bank import a_move, banked_table
from tests.support.threads import at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def run_out(table: Table) -> Table:
    """The seat's clock and whole bank ran out a moment ago: its job is due."""
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(milliseconds=5)
    )
    return Table.objects.get(pk=table.pk)


def test_the_same_bank_job_many_times_at_once_plays_once(make_user, queued):
    table, _ = banked_table(make_user)
    mover = table.timer_seat
    table = run_out(table)
    results = at_once([lambda: table_tick(table_id=table.pk, seq=table.seq)] * 4)
    assert sorted(results, key=str) == [False, False, False, True], results
    assert TableEvent.objects.filter(table=table, actor="clock").count() == 1
    seat = Seat.objects.get(table=table, position=mover)
    assert seat.away and seat.bank_ms == 0
    assert Table.objects.get(pk=table.pk).seq == table.seq + 1


@pytest.mark.parametrize("round_", range(3))
def test_a_move_racing_its_bank_running_out_counts_once(make_user, queued, round_):
    table, users = banked_table(make_user)
    mover = table.timer_seat
    table = run_out(table)
    move = a_move(table, mover)
    results = at_once(
        [
            lambda: table_tick(table_id=table.pk, seq=table.seq),
            lambda: table_act(
                table_id=table.pk,
                user=users[mover],
                action=move,
                expected_seq=table.seq,
            ),
        ]
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(e, TableError) for e in errors), errors
    moves = TableEvent.objects.filter(
        table=table, seq=table.seq + 1, action__isnull=False
    )
    assert moves.count() == 1  # the player's move or the stand-in's, not both
    assert Table.objects.get(pk=table.pk).seq == table.seq + 1
    seat = Seat.objects.get(table=table, position=mover)
    assert seat.bank_ms == 0  # whoever won, the whole bank was used, never below
    assert seat.away == (moves.get().actor == "clock")
