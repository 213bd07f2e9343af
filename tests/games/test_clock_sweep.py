"""Turn clocks run out by their deadline on the row (``games.sweep``), with no task
per move: a clock the player beat never fires."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Table, TableEvent
from games.services import seat_join, table_create, table_start
from games.sweep import clocks_due_tick
from tests.games.test_spectators import act_once
from tests.support import tables

pytestmark = pytest.mark.django_db


def expire(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(
        deadline=timezone.now() - timedelta(milliseconds=1)
    )


def test_a_move_on_a_clocked_table_queues_no_task(make_user, queued):
    table, ana, ben = tables.two_human_table(make_user, mode="online", clock=30)
    act_once(table.pk, {0: ana, 1: ben}, random.Random(1))
    table.refresh_from_db()
    assert table.timer == Table.Timer.CLOCK and table.deadline is not None
    assert queued == []


def test_the_sweep_runs_out_a_clock_past_its_deadline_and_no_other(make_user, queued):
    late, ana, ben = tables.two_human_table(make_user, mode="online", clock=30)
    on_time = table_create(mode="online", variant="draw", clock_seconds=30)
    for name in ("cleo", "dan"):
        seat_join(table_id=on_time.pk, user=make_user(name))
    table_start(table_id=on_time.pk)
    on_time.refresh_from_db()
    mover = late.timer_seat
    expire(late.pk)
    assert clocks_due_tick() == 1
    late.refresh_from_db()
    assert late.seats.get(position=mover).away
    last = TableEvent.objects.filter(table=late).latest("seq")
    assert (last.actor, last.seat) == ("clock", mover)
    assert Table.objects.get(pk=on_time.pk).seq == on_time.seq  # not due: untouched
    assert clocks_due_tick() == 0  # nothing left to run out


def test_a_clock_the_player_beat_fires_zero_times(make_user, queued):
    table, ana, ben = tables.two_human_table(make_user, mode="online", clock=30)
    first_deadline = table.deadline
    act_once(table.pk, {0: ana, 1: ben}, random.Random(2))
    table.refresh_from_db()
    assert table.deadline > first_deadline  # the next player's own clock
    seq = table.seq
    assert clocks_due_tick() == 0
    table.refresh_from_db()
    assert table.seq == seq
    assert not table.seats.filter(away=True).exists()
    # Whatever the sweep saw before the move, running it at the old seq does nothing.
    from games.services import table_tick

    assert table_tick(table_id=table.pk, seq=seq - 1) is False
    assert not TableEvent.objects.filter(table=table, actor="clock").exists()


def test_computer_moves_still_have_their_task(make_user, queued):
    user = make_user()
    from games.services import table_practice_create

    table = table_practice_create(
        user=user,
        variant="block",
        options={"seats": 2},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    state = engine.from_json(Table.objects.get(pk=table.pk).state)
    if engine.current_seat(state) == 0:  # the person opens; then it is the computer's
        act_once(table.pk, {0: user}, random.Random(3))
    table = Table.objects.get(pk=table.pk)
    assert table.timer == Table.Timer.BOT
    assert queued[-1] == (table.pk, table.seq)
