"""``tables_seated_create``: started tables with all their seats, in one call."""

from __future__ import annotations

import json
import secrets

import pytest
from django.db import transaction

from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.replay import table_verify
from games.services import (
    SeatTaker,
    TablePlan,
    seat_join,
    table_create,
    table_seated_create,
    table_start,
    tables_seated_create,
)

pytestmark = pytest.mark.django_db

SEAT_FIELDS = ("position", "team", "user_id", "bot_level", "simulated", "name")
TABLE_FIELDS = (
    "mode",
    "status",
    "variant",
    "options",
    "host_id",
    "seed",
    "state",
    "seq",
    "clock_seconds",
    "bot_delay_ms",
    "hand_pause_seconds",
    "timer",
    "timer_seat",
)


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def online(takers, variant="draw", **options):
    return table_seated_create(
        mode=Table.Mode.ONLINE,
        variant=variant,
        options=options,
        seats=takers,
        clock_seconds=30,
        hand_pause_seconds=10,
        bot_speed="instant",
    )


def test_an_online_table_starts_with_every_seat_taken(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    takers = [
        SeatTaker(user=ana),
        SeatTaker(bot_level="hard", simulated=True, name="Vera42"),
        SeatTaker(user=ben),
        SeatTaker(bot_level="medium", simulated=True, name="Hugo17"),
    ]
    table = online(takers, seats=4, partnership=True)
    table.refresh_from_db()
    assert table.mode == "online" and table.status == "playing"
    assert table.seq == 1 and table.started_at is not None
    assert (table.clock_seconds, table.hand_pause_seconds) == (30, 10)
    seats = list(Seat.objects.filter(table=table).values_list(*SEAT_FIELDS))
    assert seats == [
        (0, 0, ana.pk, "", False, "ana"),
        (1, 1, None, "hard", True, "Vera42"),
        (2, 0, ben.pk, "", False, "ben"),
        (3, 1, None, "medium", True, "Hugo17"),
    ]
    event = TableEvent.objects.get(table=table)
    assert (event.seq, event.actor, event.seat) == (1, "server", None)
    assert event.action is None
    assert TableEvent.objects.filter(table=table, action__isnull=True).exists()
    assert event.events  # the deal's events
    table_verify(table=table)  # the seed and the log give the stored state


def test_it_writes_what_create_join_and_start_write(
    make_user, monkeypatch, queued, pushes, django_capture_on_commit_callbacks
):
    """The same table, seats, log entry, frames and timed job as the long way."""
    ana = make_user("ana")
    monkeypatch.setattr(secrets, "randbits", lambda bits: 4242)
    with django_capture_on_commit_callbacks(execute=True):
        slow = table_create(
            mode=Table.Mode.ONLINE,
            variant="draw",
            clock_seconds=30,
            hand_pause_seconds=10,
            bot_speed="instant",
        )
        seat_join(table_id=slow.pk, user=ana, position=0)
        seat_join(
            table_id=slow.pk,
            bot_level="hard",
            simulated=True,
            position=1,
            name="Vera42",
        )
        table_start(table_id=slow.pk)
    slow_frames, slow_jobs = list(pushes), list(queued)
    pushes.clear()
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        fast = online(
            [
                SeatTaker(user=ana),
                SeatTaker(bot_level="hard", simulated=True, name="Vera42"),
            ]
        )

    def table_row(table_id):
        return Table.objects.filter(pk=table_id).values_list(*TABLE_FIELDS).get()

    def seat_rows(table_id):
        return list(Seat.objects.filter(table_id=table_id).values_list(*SEAT_FIELDS))

    def log(table_id):
        return list(
            TableEvent.objects.filter(table_id=table_id).values_list(
                "seq", "seat", "actor", "action", "events"
            )
        )

    def frames(sent, table_id):
        """Group and payload of each frame, without the table's id or the instant
        its clock runs out."""
        out = []
        for group, message in sent:
            payload = json.loads(message["text"])
            assert payload.pop("seq") == message["seq"] == 1
            payload["table"]["id"] = None
            if payload["table"]["timer"] is not None:  # spectators see no clock
                payload["table"]["timer"]["deadline"] = None
            out.append((group.replace(f".{table_id}.", ".T."), payload))
        return out

    assert table_row(fast.pk) == table_row(slow.pk)
    assert seat_rows(fast.pk) == seat_rows(slow.pk)
    assert log(fast.pk) == log(slow.pk)
    sent = frames(pushes, fast.pk)
    # Nobody watches a table just created: no spectators' frame.
    assert [g for g, _payload in sent] == ["table.T.seat.0"]
    assert sent == frames(slow_frames, slow.pk)
    assert "hand" in sent[0][1]["view"]  # the seat sees its own hand
    # The computer's first move is a task; a person's turn clock has none.
    fast.refresh_from_db()
    if fast.timer == Table.Timer.CLOCK:
        assert slow_jobs == [] and queued == []
    else:
        assert slow_jobs == [(slow.pk, 1)] and queued == [(fast.pk, 1)]


def test_the_frames_leave_after_commit_and_a_rollback_sends_nothing(
    make_user, pushes, queued, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    takers = [SeatTaker(user=ana), SeatTaker(bot_level="medium")]
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        online(takers)
        raise RuntimeError("the caller fails after the table")
    assert not Table.objects.exists() and pushes == []
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table = online(takers)
        assert pushes == []  # nothing before the commit
    # Nobody sits in a computer player's seat, nor watches a table just created.
    assert {g for g, _ in pushes} == {f"table.{table.pk}.seat.0"}
    assert all(m["seq"] == 1 for _, m in pushes)
    table.refresh_from_db()
    assert queued == ([] if table.timer == Table.Timer.CLOCK else [(table.pk, 1)])


def refused(code, make_user, **kwargs):
    ana, ben = make_user(), make_user()
    arguments = {
        "mode": Table.Mode.ONLINE,
        "variant": "draw",
        "seats": [SeatTaker(user=ana), SeatTaker(user=ben)],
        **kwargs,
    }
    with transaction.atomic():
        with pytest.raises(TableError) as err:
            table_seated_create(**arguments)
        # The refusal leaves the caller's transaction usable.
        assert not Table.objects.exists() and not Seat.objects.exists()
    assert err.value.code == code
    assert err.value.message and "Taker" not in err.value.message
    return err.value


@pytest.mark.parametrize(
    ("code", "kwargs"),
    [
        ("bad_options", {"mode": Table.Mode.PRACTICE}),
        ("bad_options", {"mode": Table.Mode.STAKE}),
        ("bad_options", {"mode": "ranked"}),
        ("bad_options", {"variant": "chess"}),
        ("bad_options", {"options": {"seats": 9}}),
        ("bad_options", {"clock_seconds": 2}),
        ("bad_options", {"bot_speed": "warp"}),
        ("not_full", {"seats": [SeatTaker(bot_level="easy")]}),
        ("table_full", {"seats": [SeatTaker(bot_level="easy")] * 3}),
        ("bad_seat", {"seats": [SeatTaker(), SeatTaker(bot_level="easy")]}),
        ("bad_seat", {"seats": [SeatTaker(bot_level="genius")] * 2}),
        (
            "bad_seat",
            {"seats": [SeatTaker(bot_level="easy", name="Impostor")] * 2},
        ),
    ],
)
def test_bad_requests_are_refused_and_create_nothing(make_user, code, kwargs):
    refused(code, make_user, **kwargs)


def test_a_player_twice_or_a_seat_of_both_kinds_is_refused(make_user):
    ana = make_user("ana")
    err = refused(
        "already_seated", make_user, seats=[SeatTaker(user=ana), SeatTaker(user=ana)]
    )
    assert err.message == "A player can hold only one seat of a table."
    both = SeatTaker(user=ana, bot_level="easy")
    refused("bad_seat", make_user, seats=[both, SeatTaker(bot_level="easy")])


def plan(*takers, **options):
    return TablePlan(
        mode=Table.Mode.ONLINE, variant="draw", options=options, seats=list(takers)
    )


def test_tables_are_four_statements_together_whatever_their_number_and_size(
    make_user, django_assert_num_queries
):
    """Which players are bot accounts (``Seat.program``), the tables, their seats,
    their log entries: no statement per table or seat."""
    people = [make_user() for _ in range(6)]
    with django_assert_num_queries(4):
        online([SeatTaker(user=people[0]), SeatTaker(bot_level="easy")])
    with django_assert_num_queries(4):
        tables = tables_seated_create(
            plans=[
                plan(SeatTaker(user=people[0]), SeatTaker(user=people[1])),
                plan(*(SeatTaker(user=p) for p in people[2:]), seats=4),
                plan(SeatTaker(bot_level="hard"), SeatTaker(user=people[1])),
            ]
        )
    seated = {
        t.pk: list(Seat.objects.filter(table=t).values_list("user_id", flat=True))
        for t in tables
    }
    assert list(seated.values()) == [
        [people[0].pk, people[1].pk],
        [p.pk for p in people[2:]],
        [None, people[1].pk],
    ]
    assert TableEvent.objects.filter(table__in=tables, seq=1).count() == 3
    assert tables_seated_create(plans=[]) == []


def test_one_refused_plan_creates_no_table_at_all(make_user, pushes):
    ana, ben = make_user("ana"), make_user("ben")
    good = plan(SeatTaker(user=ana), SeatTaker(user=ben))
    with pytest.raises(TableError) as err:
        tables_seated_create(plans=[good, plan(SeatTaker(user=ana))])
    assert err.value.code == "not_full"
    assert not Table.objects.exists() and not Seat.objects.exists()
    assert pushes == []
