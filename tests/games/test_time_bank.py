"""The time bank: each seat's reserve for the match, used once a turn's clock has
run out, before the stand-in plays for the seat (``games.timers``)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.selectors import table_frame
from games.services import seat_join, table_act, table_create, table_start, table_tick
from games.services.creating import SeatTaker, table_seated_create
from games.sweep import clocks_due_tick
from tests.support import tables

pytestmark = pytest.mark.django_db

CLOCK, BANK = 10, 60


def banked_table(make_user, **options):
    """A started online table of ana (seat 0) and ben (seat 1): a 10 s clock and
    a 60 s bank."""
    ana, ben = make_user("ana"), make_user("ben")
    table = table_create(
        mode="online",
        variant="draw",
        options=options,
        clock_seconds=CLOCK,
        bank_seconds=BANK,
        hand_pause_seconds=0,
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, user=ben)
    table_start(table_id=table.pk)
    table = Table.objects.get(pk=table.pk)
    if table.state is None:  # a fair table waiting for its seeds: deal now
        Table.objects.filter(pk=table.pk).update(deadline=None)
        table_tick(table_id=table.pk, seq=table.seq)
        table = Table.objects.get(pk=table.pk)
    return table, {0: ana, 1: ben}


def seconds_to_deadline(table: Table) -> float:
    assert table.deadline is not None
    return (table.deadline - timezone.now()).total_seconds()


def set_clock_ended(table: Table, *, ago: float, bank_ms: int) -> None:
    """Move the running turn back: its clock ended ``ago`` seconds before now, and
    the job falls due when the seat's ``bank_ms`` is spent after that."""
    clock_end = timezone.now() - timedelta(seconds=ago)
    Table.objects.filter(pk=table.pk).update(
        deadline=clock_end + timedelta(milliseconds=bank_ms)
    )


def a_move(table: Table, position: int) -> dict:
    state = engine.from_json(table.state)
    legal = engine.legal_actions(state, position)
    return engine.action_to_dict(random.Random(1).choice(legal))


def bank_of(table: Table, position: int) -> int | None:
    return Seat.objects.get(table=table, position=position).bank_ms


def test_the_turn_job_falls_due_after_the_clock_and_the_whole_bank(make_user, queued):
    table, _ = banked_table(make_user)
    assert table.timer == Table.Timer.CLOCK
    assert CLOCK + BANK - 2 < seconds_to_deadline(table) <= CLOCK + BANK
    frame = table_frame(table_id=table.pk, position=0)
    assert frame["table"]["bank_seconds"] == BANK
    assert [s["bank_ms"] for s in frame["seats"]] == [BANK * 1000, BANK * 1000]
    timer = frame["table"]["timer"]
    # The clock part ends ``BANK`` seconds before the job's deadline.
    assert timer["deadline"] - timer["bank_from"] == pytest.approx(BANK)


def test_the_bank_is_used_when_the_clock_runs_out_and_the_standin_waits(
    make_user, queued
):
    table, _ = banked_table(make_user)
    mover = table.timer_seat
    # The clock ran out 30 s ago: the seat is drawing on its bank, nobody plays.
    set_clock_ended(table, ago=30, bank_ms=BANK * 1000)
    assert clocks_due_tick() == 0
    assert table_tick(table_id=table.pk, seq=table.seq) is False
    after = Table.objects.get(pk=table.pk)
    assert after.seq == table.seq
    assert not Seat.objects.get(table=table, position=mover).away
    assert not TableEvent.objects.filter(table=table, actor="clock").exists()


def test_the_standin_plays_only_once_the_bank_is_empty(make_user, queued):
    table, _ = banked_table(make_user)
    mover = table.timer_seat
    set_clock_ended(table, ago=BANK + 1, bank_ms=BANK * 1000)
    assert clocks_due_tick() == 1
    seat = Seat.objects.get(table=table, position=mover)
    assert seat.away and seat.bank_ms == 0
    last = TableEvent.objects.filter(table=table).latest("seq")
    assert (last.actor, last.seat) == ("clock", mover)
    # The same job again, or late, changes nothing.
    before = Table.objects.get(pk=table.pk)
    assert table_tick(table_id=table.pk, seq=table.seq) is False
    assert clocks_due_tick() == 0
    again = Table.objects.get(pk=table.pk)
    assert (again.seq, again.deadline) == (before.seq, before.deadline)
    assert bank_of(table, mover) == 0


def test_acting_in_the_bank_subtracts_the_time_past_the_clock(make_user, queued):
    table, users = banked_table(make_user)
    mover = table.timer_seat
    set_clock_ended(table, ago=20, bank_ms=BANK * 1000)
    table = Table.objects.get(pk=table.pk)
    table_act(
        table_id=table.pk,
        user=users[mover],
        action=a_move(table, mover),
        expected_seq=table.seq,
    )
    left = bank_of(table, mover)
    assert left is not None and 39_000 <= left <= 40_000
    other = 1 - mover
    assert bank_of(table, other) is None  # untouched: the whole bank
    # A reload (the seat's and a spectator's full frame) shows the same bank.
    for position in (0, 1, None):
        seats = table_frame(table_id=table.pk, position=position)["seats"]
        assert seats[mover]["bank_ms"] == left
        assert seats[other]["bank_ms"] == BANK * 1000
    # The job of the turn just played, repeated or late, changes nothing.
    assert table_tick(table_id=table.pk, seq=table.seq) is False
    assert bank_of(table, mover) == left


def test_acting_within_the_clock_leaves_the_bank_whole(make_user, queued):
    table, users = banked_table(make_user)
    mover = table.timer_seat
    table_act(
        table_id=table.pk,
        user=users[mover],
        action=a_move(table, mover),
        expected_seq=table.seq,
    )
    assert bank_of(table, mover) is None
    frame = table_frame(table_id=table.pk, position=mover)
    assert frame["seats"][mover]["bank_ms"] == BANK * 1000


def test_the_next_turn_clock_runs_with_the_bank_left(make_user, queued):
    table, users = banked_table(make_user)
    Seat.objects.filter(table=table).update(bank_ms=5_000)
    mover = table.timer_seat
    table_act(
        table_id=table.pk,
        user=users[mover],
        action=a_move(table, mover),
        expected_seq=table.seq,
    )
    table = Table.objects.get(pk=table.pk)
    if table.timer == Table.Timer.CLOCK:
        assert CLOCK + 3 < seconds_to_deadline(table) <= CLOCK + 5


def test_the_bank_never_goes_below_zero_for_a_late_move(make_user, queued):
    table, users = banked_table(make_user)
    mover = table.timer_seat
    # Past the bank's end, the job not run yet: the player's move still counts.
    set_clock_ended(table, ago=BANK + 30, bank_ms=BANK * 1000)
    table = Table.objects.get(pk=table.pk)
    table_act(
        table_id=table.pk,
        user=users[mover],
        action=a_move(table, mover),
        expected_seq=table.seq,
    )
    assert bank_of(table, mover) == 0


def test_the_bank_is_per_match_not_refilled_at_a_new_hand(make_user, queued):
    table, users = banked_table(make_user, target=150)
    Seat.objects.filter(table=table, position=0).update(bank_ms=5_000)
    hands = set()

    def note(t: Table) -> None:
        if t.state:
            hands.add(engine.from_json(t.state).hand_no)

    finished = tables.drive(
        table.pk, users, rng=random.Random(4), on_step=note, choose=None
    )
    assert finished.status == Table.Status.FINISHED
    assert len(hands) > 1
    assert bank_of(table, 0) == 5_000
    assert bank_of(table, 1) is None


def test_a_table_without_a_bank_shows_none(make_user, queued):
    table, ana, ben = tables.two_human_table(make_user, mode="online", clock=30)
    frame = table_frame(table_id=table.pk, position=0)
    assert frame["table"]["bank_seconds"] is None
    assert [s["bank_ms"] for s in frame["seats"]] == [None, None]
    assert frame["table"]["timer"]["bank_from"] is None
    assert 28 < seconds_to_deadline(table) <= 30


def test_seated_tables_take_a_bank_too(make_user, queued):
    ana, ben = make_user("ana"), make_user("ben")
    table = table_seated_create(
        mode="online",
        variant="draw",
        seats=[SeatTaker(user=ana), SeatTaker(user=ben)],
        clock_seconds=30,
        bank_seconds=120,
    )
    assert Table.objects.get(pk=table.pk).bank_seconds == 120


@pytest.mark.parametrize(
    ("clock", "bank"), [(None, 60), (10, 0), (10, 601)], ids=["no-clock", "0", "601"]
)
def test_a_bank_out_of_range_is_refused_and_nothing_is_made(clock, bank):
    before = Table.objects.count()
    with pytest.raises(TableError) as err:
        table_create(
            mode="online", variant="draw", clock_seconds=clock, bank_seconds=bank
        )
    assert err.value.code == "bad_options"
    assert Table.objects.count() == before
