"""Every change of a table is a new ``seq``, and its frames go out with it.

A frame that repeats a ``seq`` is dropped by the consumers and the browser as old,
so a change sent without a new one is invisible until the next resync.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.replay import table_verify
from games.services import (
    seat_back,
    seat_leave,
    seat_presence,
    seats_offline_tick,
    table_act,
    table_cancel,
    table_practice_create,
    table_tick,
)
from games.services.seats import OFFLINE_GRACE
from games.spectators import watched_mark
from tests.support.tables import table_state, two_human_table

pytestmark = pytest.mark.django_db


def _practice(make_user):
    user = make_user()
    table = table_practice_create(
        user=user, variant="block", bot_levels=["easy"], bot_speed="instant"
    )
    return table, {0: user}


def act(make_user):
    table, ana, ben = two_human_table(make_user)
    state = table_state(table.pk)
    mover = engine.current_seat(state)
    user = ana if mover == 0 else ben
    action = engine.action_to_dict(engine.legal_actions(state, mover)[0])
    return table, lambda: table_act(
        table_id=table.pk, user=user, action=action, expected_seq=table.seq
    )


def tick_bot(make_user):
    table, users = _practice(make_user)
    state = table_state(table.pk)
    if engine.current_seat(state) == 0:  # let the player move first
        table_act(
            table_id=table.pk,
            user=users[0],
            action=engine.action_to_dict(engine.legal_actions(state, 0)[0]),
            expected_seq=table.seq,
        )
        table.refresh_from_db()
    assert table.timer == Table.Timer.BOT
    Table.objects.filter(pk=table.pk).update(deadline=None)
    return table, lambda: table_tick(table_id=table.pk, seq=table.seq)


def tick_clock(make_user):
    table, ana, ben = two_human_table(make_user, clock=30)
    Table.objects.filter(pk=table.pk).update(deadline=None)
    return table, lambda: table_tick(table_id=table.pk, seq=table.seq)


def leave_practice(make_user):
    table, users = _practice(make_user)
    return table, lambda: seat_leave(table_id=table.pk, user=users[0])


def leave_ranked(make_user):
    table, ana, ben = two_human_table(make_user, mode="online", clock=30)
    return table, lambda: seat_leave(table_id=table.pk, user=ben)


def back(make_user):
    table, ana, ben = two_human_table(make_user, clock=30)
    Seat.objects.filter(table=table, position=0).update(away=True)
    return table, lambda: seat_back(table_id=table.pk, user=ana)


def presence_on(make_user):
    table, ana, ben = two_human_table(make_user)
    return table, lambda: seat_presence(table_id=table.pk, user=ana, connected=True)


def presence_off(make_user):
    table, ana, ben = two_human_table(make_user)
    Seat.objects.filter(table=table, position=1).update(connected=True)

    def leave() -> None:
        seat_presence(table_id=table.pk, user=ben, connected=False)
        seats_offline_tick(now=timezone.now() + OFFLINE_GRACE + timedelta(seconds=1))

    return table, leave


def cancel(make_user):
    table, ana, ben = two_human_table(make_user)
    return table, lambda: table_cancel(table_id=table.pk)


CHANGES = [
    act,
    tick_bot,
    tick_clock,
    leave_practice,
    leave_ranked,
    back,
    presence_on,
    presence_off,
    cancel,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__)
def test_every_change_is_a_new_seq_and_its_frames_go_out(
    change, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, run = change(make_user)
    watched_mark(table.pk)  # someone watches: the spectators are told too
    table.refresh_from_db()
    before = table.seq
    pushes.clear()
    with django_capture_on_commit_callbacks(execute=True):
        run()
    table.refresh_from_db()
    assert table.seq == before + 1
    humans = {s.position for s in table.seats.all() if not s.is_bot}
    groups = {f"table.{table.pk}.seat.{p}" for p in humans} | {
        f"table.{table.pk}.watch"
    }
    assert {g for g, _ in pushes} == groups
    for _group, message in pushes:
        assert message["type"] == "outbox.frames"
        assert message["seq"] == table.seq
        frame = json.loads(message["text"])
        assert frame["type"] == "state" and frame["seq"] == table.seq
        assert frame["table"]["status"] == table.status
    # A change without a move still leaves a log that replays to the state.
    table_verify(table=table)


def test_a_presence_change_keeps_the_turn_clock(make_user, queued):
    table, ana, ben = two_human_table(make_user, clock=30)
    deadline = table.deadline
    seat_presence(table_id=table.pk, user=ben, connected=True)
    table.refresh_from_db()
    assert table.deadline == deadline  # reconnecting buys no time
    # A turn clock has no task: the clock sweep runs it out by its deadline.
    assert [job for job in queued if job[0] == table.pk] == []


def test_a_table_that_did_not_change_keeps_its_seq(make_user, queued):
    table, ana, ben = two_human_table(make_user)
    seat_presence(table_id=table.pk, user=ana, connected=False)  # was not connected
    seat_back(table_id=table.pk, user=ana)  # was not away
    table_cancel(table_id=table.pk)
    table_cancel(table_id=table.pk)  # cancelled already
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    assert table.seq == 2  # the deal, then the one cancellation
