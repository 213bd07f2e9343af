"""The table store (games/stores.py): every query of a move goes to the database
its table lives in, on SQLite and on PostgreSQL (a second database of the same
server, made and migrated for the test)."""

from __future__ import annotations

import random
import tempfile
from copy import deepcopy
from pathlib import Path

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.utils import load_backend

from games import engine, finish
from games.errors import TableError
from games.models import FinishStep, Seat, Table, TableEvent
from games.names import seat_display_name
from games.services import SeatTaker, table_act, table_seated_create, table_tick
from games.stores import stores_check, table_database, table_store
from tests.matchmaking.stakes.helpers import drive_to_last_move

pytestmark = pytest.mark.django_db(transaction=True)

STORE = "tables_b"


@pytest.fixture
def second_store(settings):
    """A second database holding the games' tables, as ``STORE``; tables of an
    even id live there."""
    default = connections[DEFAULT_DB_ALIAS]
    entry = deepcopy(connections.settings[DEFAULT_DB_ALIAS])
    folder = tempfile.TemporaryDirectory()
    if default.vendor == "postgresql":
        entry["NAME"] = f"{default.settings_dict['NAME']}_{STORE}"
        with default.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{entry["NAME"]}"')
            cursor.execute(f'CREATE DATABASE "{entry["NAME"]}"')
    else:
        entry["NAME"] = str(Path(folder.name) / f"{STORE}.sqlite3")
    # A connection of this thread only, outside DATABASES: Django's test case lets
    # a test use such a connection (the moves below run in this thread).
    connections[STORE] = load_backend(entry["ENGINE"]).DatabaseWrapper(entry, STORE)
    settings.TABLE_DATABASES = [DEFAULT_DB_ALIAS, STORE]
    try:
        call_command("migrate", "games", database=STORE, verbosity=0)
        yield STORE
    finally:
        connections[STORE].close()
        del connections[STORE]
        if default.vendor == "postgresql":
            with default.cursor() as cursor:
                cursor.execute(
                    f'DROP DATABASE IF EXISTS "{entry["NAME"]}" WITH (FORCE)'
                )
        folder.cleanup()


def _moved_to_store(table: Table) -> int:
    """Copy a started table with its seats and log into the store under an id the
    store owns, and delete it from the default database; its new id."""
    new_id = table.pk * 2  # even: the store's (games.stores.table_database)
    seats = list(Seat.objects.filter(table=table))
    events = list(TableEvent.objects.filter(table=table))
    table.pk = new_id
    table.save(using=STORE, force_insert=True)
    for row in (*seats, *events):
        row.pk = None
        row.table_id = new_id
        row.save(using=STORE, force_insert=True)
    Table.objects.filter(pk=new_id // 2).delete()
    return new_id


def _stored_table(takers: list[SeatTaker]) -> int:
    """A started online block table of two seats (computers instant), moved into
    the store; its id."""
    with transaction.atomic():
        table = table_seated_create(
            mode=Table.Mode.ONLINE,
            variant="block",
            options={"seats": 2, "target": 50},
            seats=takers,
            clock_seconds=30,
            hand_pause_seconds=0,
            bot_speed="instant",
        )
    return _moved_to_store(table)


def _no_query(execute, sql, params, many, context):
    raise AssertionError(f"a move's query reached the default database: {sql}")


def test_every_query_of_a_move_goes_to_its_tables_database(
    second_store, make_user, queued, pushes
):
    ana, ben = make_user("ana"), make_user("ben")
    table_id = _stored_table([SeatTaker(user=ana), SeatTaker(user=ben)])
    assert table_database(table_id) == STORE
    assert not Table.objects.filter(pk=table_id).exists()
    stored = Table.objects.using(STORE).get(pk=table_id)
    state = engine.from_json(stored.state)
    player = next(p for p in range(2) if engine.legal_actions(state, p))
    user = (ana, ben)[player]
    action = engine.action_to_dict(engine.legal_actions(state, player)[0])
    pushes.clear()

    with connections[DEFAULT_DB_ALIAS].execute_wrapper(_no_query):
        seq = table_act(
            table_id=table_id, user=user, action=action, expected_seq=stored.seq
        )

    stored.refresh_from_db(using=STORE)
    assert seq == stored.seq == 2
    move = TableEvent.objects.using(STORE).get(table_id=table_id, seq=2)
    assert (move.seat, move.actor, move.action) == (player, "player", action)
    # The frames went out once the store's transaction committed, named as the
    # seats were named when their players sat down.
    frames = [m for _, m in pushes if m.get("seq") == 2]
    assert len(frames) == 2
    assert '"name": "ana"' in frames[0]["text"] and '"name": "ben"' in frames[0]["text"]
    # Nothing of the move was written to the default database.
    assert not TableEvent.objects.filter(seq=2).exists()


def test_a_computer_move_goes_to_its_tables_database_too(
    second_store, make_user, queued, pushes
):
    ana = make_user("ana")
    table_id = _stored_table(
        [
            SeatTaker(user=ana),
            SeatTaker(bot_level="easy", simulated=True, name="Vera42"),
        ]
    )
    with connections[DEFAULT_DB_ALIAS].execute_wrapper(_no_query):
        stored = Table.objects.using(STORE).get(pk=table_id)
        if stored.timer != Table.Timer.BOT:  # Ana leads: she moves first
            state = engine.from_json(stored.state)
            action = engine.action_to_dict(engine.legal_actions(state, 0)[0])
            table_act(table_id=table_id, user=ana, action=action, expected_seq=1)
            stored.refresh_from_db(using=STORE)
        assert stored.timer == Table.Timer.BOT
        assert table_tick(table_id=table_id, seq=stored.seq)
    bot_moves = TableEvent.objects.using(STORE).filter(table_id=table_id, actor="bot")
    assert bot_moves.count() == 1


def test_a_refused_move_changes_nothing_in_the_store(
    second_store, make_user, queued, pushes
):
    ana, ben = make_user("ana"), make_user("ben")
    table_id = _stored_table([SeatTaker(user=ana), SeatTaker(user=ben)])
    stored = Table.objects.using(STORE).get(pk=table_id)
    state = engine.from_json(stored.state)
    waiting = next(p for p in range(2) if not engine.legal_actions(state, p))
    action = engine.action_to_dict(engine.legal_actions(state, 1 - waiting)[0])
    with (
        connections[DEFAULT_DB_ALIAS].execute_wrapper(_no_query),
        pytest.raises(TableError) as refused,
    ):
        table_act(
            table_id=table_id,
            user=(ana, ben)[waiting],
            action=action,
            expected_seq=stored.seq,
        )
    assert refused.value.code == "not_your_turn"
    stored.refresh_from_db(using=STORE)
    assert stored.seq == 1
    assert TableEvent.objects.using(STORE).filter(table_id=table_id).count() == 1


def test_a_finishing_move_applies_its_consequences_after_the_stores_commit(
    second_store, make_user, queued, pushes, monkeypatch
):
    """The finish's consequences run once the move's transaction in the table's
    store has committed (they see the table finished), and each step is locked
    and marked done in that store."""
    seen: list[tuple[str, bool]] = []

    def probe(notice) -> None:
        table = Table.objects.get(pk=notice.table_id)  # routed to the store
        seen.append((table.status, connections[STORE].in_atomic_block))

    monkeypatch.setattr(finish, "_registry", {})
    finish.consequence_register("probe", probe, modes=(Table.Mode.ONLINE,))
    ana, ben = make_user("ana"), make_user("ben")
    table_id = _stored_table([SeatTaker(user=ana), SeatTaker(user=ben)])
    with table_store(table_id):
        last = drive_to_last_move(table_id, {0: ana, 1: ben}, rng=random.Random(2))
    assert seen == []
    with connections[DEFAULT_DB_ALIAS].execute_wrapper(_no_query):
        table_act(
            table_id=table_id,
            user=last.user,
            action=last.action,
            expected_seq=last.seq,
        )
    # Run after the commit, inside the step's own transaction of the store.
    assert seen == [(Table.Status.FINISHED, True)]
    step = FinishStep.objects.using(STORE).get(table_id=table_id)
    assert step.name == "probe" and step.done_at is not None
    assert not FinishStep.objects.filter(table_id=table_id).exists()
    # Asked again (the sweep's way), it is not applied twice.
    assert finish.finish_step_apply(table_id=table_id, name="probe") is False
    assert len(seen) == 1


def test_the_system_check_refuses_several_table_stores(settings):
    assert stores_check() == []
    settings.TABLE_DATABASES = [DEFAULT_DB_ALIAS, STORE]
    (error,) = stores_check()
    assert error.id == "games.E001" and "docs/capacity.md" in error.hint
    assert error in run_checks()


def test_a_seat_keeps_its_players_name(make_user, queued, pushes):
    """The name a seat shows is the one its player sat down with, read from the
    seat itself (the table store has no user rows)."""
    ana = make_user("ana")
    with transaction.atomic():
        table = table_seated_create(
            mode=Table.Mode.ONLINE,
            variant="block",
            options={"seats": 2, "target": 50},
            seats=[
                SeatTaker(user=ana),
                SeatTaker(bot_level="easy", simulated=True, name="Vera42"),
            ],
            clock_seconds=30,
            hand_pause_seconds=0,
        )
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    assert [s.name for s in seats] == ["ana", "Vera42"]
    assert seat_display_name(seats[0]) == "ana"
    assert seat_display_name(seats[1]) == "Vera42 · computer"
