"""``games.rows``: the move's statements without the ORM compiler, same results."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dbtools.prepared import prepared_cursor
from dbtools.rows import row_insert, rows_insert
from games.models import Seat, Table, TableEvent
from games.rows import (
    event_append,
    table_locked,
    table_seating_locked,
    table_seats,
    table_update,
)
from games.services import table_practice_create

pytestmark = pytest.mark.django_db


def practice(user):
    return table_practice_create(
        user=user, variant="block", bot_levels=["medium"], bot_speed="instant"
    )


def test_table_locked_reads_the_row_as_the_orm_does(make_user):
    table = practice(make_user())
    with transaction.atomic():
        got = table_locked(table.pk)
    orm = Table.objects.get(pk=table.pk)
    assert got is not None
    for field in Table._meta.concrete_fields:
        assert getattr(got, field.attname) == getattr(orm, field.attname), field.name
    assert isinstance(got.state, dict)
    assert timezone.is_aware(got.created_at)


def test_table_locked_is_none_for_a_missing_table():
    with transaction.atomic():
        assert table_locked(987_654) is None


def test_table_seats_carry_their_users_names_and_load_the_rest_on_use(make_user):
    user = make_user("Rowena")
    table = practice(user)
    seats = table_seats(table)
    assert [s.position for s in seats] == [0, 1]
    human, bot = seats
    assert human.user_id == user.pk
    assert human.user.username == "Rowena"
    assert human.user.email == "rowena@example.com"  # deferred, loaded on use
    assert bot.user_id is None and bot.bot_level == "medium"
    assert all(s.table is table for s in seats)
    orm = {s.pk: s for s in Seat.objects.filter(table=table)}
    for seat in seats:
        for field in Seat._meta.concrete_fields:
            assert getattr(seat, field.attname) == getattr(orm[seat.pk], field.attname)


def test_event_append_stores_what_the_orm_reads_back(make_user):
    table = practice(make_user())
    before = timezone.now()
    event_append(
        table=table,
        seq=99,
        seat=1,
        actor="bot",
        action={"type": "play", "tile": [6, 6], "end": "root"},
        events=[{"type": "played", "seat": 1, "tile": [6, 6]}],
    )
    ev = TableEvent.objects.get(table=table, seq=99)
    assert ev.seat == 1 and ev.actor == "bot"
    assert ev.action == {"type": "play", "tile": [6, 6], "end": "root"}
    assert ev.events == [{"type": "played", "seat": 1, "tile": [6, 6]}]
    assert before <= ev.created_at <= timezone.now()


def test_table_update_writes_only_the_named_fields(make_user):
    table = practice(make_user())
    deadline = timezone.now() + timedelta(seconds=30)
    table.seq = 41
    table.state = {"version": 1, "note": "new"}
    table.deadline = deadline
    table.timer_seat = None
    table.variant = "draw"  # changed in memory, not named: must stay "block"
    table_update(table, ["seq", "state", "deadline", "timer_seat", "seq"])
    stored = Table.objects.get(pk=table.pk)
    assert stored.seq == 41
    assert stored.state == {"version": 1, "note": "new"}
    assert stored.deadline == deadline
    assert stored.timer_seat is None
    assert stored.variant == "block"


def test_row_insert_writes_the_row_as_create_does(make_user):
    host = make_user()
    options = {"variant": "block", "seats": 2}
    fields = dict(mode="friend", variant="block", options=options, host=host, seed=7)
    with transaction.atomic():
        inserted = row_insert(Table(**fields))
    created = Table.objects.create(**fields)
    assert inserted.pk is not None and inserted.pk != created.pk
    assert not inserted._state.adding
    got = Table.objects.get(pk=inserted.pk)
    orm = Table.objects.get(pk=created.pk)
    for field in Table._meta.concrete_fields:
        if field.name not in ("id", "created_at"):
            assert getattr(got, field.attname) == getattr(orm, field.attname), field
    assert got.options == options
    assert timezone.is_aware(got.created_at)  # auto_now_add, set by pre_save
    assert abs(got.created_at - orm.created_at) < timedelta(seconds=5)


def _stored(model, pks):
    rows = {obj.pk: obj for obj in model.objects.filter(pk__in=pks)}
    return [rows[pk] for pk in pks]


def test_rows_insert_writes_the_rows_as_bulk_create_does(make_user):
    host, guest = make_user(), make_user()
    now = timezone.now()
    state = {"phase": "playing", "hands": [[[6, 6], [1, 2]], []], "note": "é ✓"}

    def tables():
        return [
            Table(
                mode="online",
                variant="draw",
                options={"variant": "draw", "seats": 2},
                host=host,
                seed=2**62 + 5,
                state=state,
                fair={"chains": ["ab" * 32], "seeds": [None, ""]},
                status=Table.Status.PLAYING,
                started_at=now,
                deadline=now + timedelta(seconds=3),
                timer=Table.Timer.DEAL,
                seq=1,
            ),
            Table(mode="friend", variant="block", options={}, seed=3, state=None),
        ]

    with transaction.atomic():
        ours = rows_insert(tables())
    orm = Table.objects.bulk_create(tables())
    assert [t.pk for t in ours] == sorted(t.pk for t in ours)  # in the given order
    assert all(not t._state.adding and t.created_at is not None for t in ours)
    for got, want in zip(
        _stored(Table, [t.pk for t in ours]),
        _stored(Table, [t.pk for t in orm]),
        strict=True,
    ):
        for field in Table._meta.concrete_fields:
            if field.name not in ("id", "created_at"):
                assert getattr(got, field.attname) == getattr(want, field.attname)
        assert timezone.is_aware(got.created_at)
    first, second = _stored(Table, [t.pk for t in ours])
    assert first.state == state and first.fair["seeds"] == [None, ""]
    assert second.state is None and second.host_id is None  # SQL NULL
    assert Table.objects.filter(pk=second.pk, state__isnull=True).exists()

    seats = [
        Seat(table=ours[0], position=0, team=0, user=guest),
        Seat(table=ours[0], position=1, bot_level="hard", simulated=True, name="Ana"),
    ]
    events = [TableEvent(table=ours[0], seq=1, actor="server", events=[{"a": 1}])]
    with transaction.atomic():
        rows_insert(seats)
        rows_insert(events)
        assert rows_insert([]) == []
    stored = list(Seat.objects.filter(table=ours[0]).order_by("position"))
    assert [(s.pk, s.user_id, s.team) for s in stored] == [
        (seats[0].pk, guest.pk, 0),
        (seats[1].pk, None, None),
    ]
    assert stored[1].bot_level == "hard" and stored[1].name == "Ana"
    assert stored[1].simulated and not stored[0].simulated
    event = TableEvent.objects.get(pk=events[0].pk)
    assert event.events == [{"a": 1}] and event.action is None


def test_rows_insert_refuses_fields_it_does_not_take_and_rows_with_a_pk(make_user):
    from leagues.models import Membership

    with pytest.raises(TypeError, match="DecimalField"):
        rows_insert([Membership()])
    table = practice(make_user())
    with pytest.raises(ValueError, match="new rows only"):
        rows_insert([table])


def test_prepared_statements_keep_their_text_in_the_query_log(make_user):
    table = practice(make_user())
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):  # the first run prepares, the next ones run it by name
            with transaction.atomic():
                assert table_seating_locked(table.pk) is not None
    texts = [q["sql"] for q in queries if "games_seat" in (q["sql"] or "")]
    assert len(texts) == 3
    assert all(
        "FOR UPDATE" in text or connection.vendor != "postgresql" for text in texts
    )


def test_prepared_statements_are_prepared_on_postgresql_only(make_user):
    table = practice(make_user())
    for _ in range(2):
        with transaction.atomic():
            table_seating_locked(table.pk)
    if connection.vendor != "postgresql":
        with prepared_cursor() as prepared, connection.cursor() as plain:
            assert prepared.cursor.__class__ is plain.cursor.__class__
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("games_seat" in text and "$1" in text for text in prepared)
    # Django's own cursors still bind on the client and prepare nothing.
    Table.objects.filter(pk=table.pk).exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] == len(prepared)
