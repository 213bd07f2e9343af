"""The rows of one move, read and written with SQL composed once per process.

Decision: a move is four statements (lock the table, read its seats, append the
event, update the table), two on PostgreSQL (``table_with_seats`` locks and reads,
``move_write`` writes both). Through the ORM each cost 0.5-0.8 ms of CPU on the
benchmark machine, ten times the SQL itself: query compilation and model building.
At 100 busy tables that time is spent under the daphne process's one interpreter
lock, where every player's round trip waits for it (``bench/ws_load.py``).
These functions issue the same statements with SQL built once from the models'
metadata (``dbtools.rows``: values and results converted as the ORM converts them,
statements prepared once per connection on PostgreSQL) and return ordinary model
instances, so everything else keeps using the ORM.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.options import Options
from django.utils import timezone

from dbtools.prepared import prepared_cursor
from dbtools.rows import (
    column_list,
    concrete_field,
    database_of,
    quote_name,
    rows_load,
)
from games.models import Seat, Table, TableEvent


def _db() -> BaseDatabaseWrapper:
    """The connection of the table store in use (``games.stores``)."""
    return database_of(Table)


def _col(meta: Options[Any], name: str) -> str:
    """The quoted column of the model's field ``name``."""
    return quote_name(str(concrete_field(meta, name).column))


@cache
def _lock_sql() -> str:
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = quote_name(Table._meta.db_table)
    # Every name in these statements comes from the models; values are parameters.
    return (
        f"SELECT {column_list(Table)} FROM {table} "  # noqa: S608
        f"WHERE {quote_name('id')} = %s{lock}"
    )


@cache
def _read_sql() -> str:
    table = quote_name(Table._meta.db_table)
    where = f"{quote_name('id')} = %s"
    return f"SELECT {column_list(Table)} FROM {table} WHERE {where}"  # noqa: S608


@cache
def _seats_sql() -> str:
    seat = Seat._meta
    where = f"{_col(seat, 'table')} = %s"
    order = _col(seat, "position")
    return (
        f"SELECT {column_list(Seat)} FROM {quote_name(seat.db_table)} "  # noqa: S608
        f"WHERE {where} ORDER BY {order}"
    )


_EVENT_FIELDS = ("table", "seq", "seat", "actor", "action", "events", "created_at")


@cache
def _event_sql() -> str:
    meta = TableEvent._meta
    cols = ", ".join(_col(meta, f) for f in _EVENT_FIELDS)
    marks = ", ".join(["%s"] * len(_EVENT_FIELDS))
    table = quote_name(meta.db_table)
    return f"INSERT INTO {table} ({cols}) VALUES ({marks})"  # noqa: S608


@cache
def _update_sql(fields: tuple[str, ...]) -> str:
    meta = Table._meta
    sets = ", ".join(f"{_col(meta, f)} = %s" for f in fields)
    table = quote_name(meta.db_table)
    return f"UPDATE {table} SET {sets} WHERE {quote_name('id')} = %s"  # noqa: S608


@dataclass(frozen=True)
class Seating:
    """What taking a seat needs of a locked table: its status, its options and the
    seats taken (position to user id, None for a computer player)."""

    status: str
    options: dict[str, Any]
    taken: dict[int, int | None]


@cache
def _seating_sql() -> str:
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    seat = Seat._meta
    table = quote_name(Table._meta.db_table)
    table_id = f"t.{quote_name('id')}"
    return (
        f"SELECT t.{quote_name('status')}, t.{quote_name('options')}, "  # noqa: S608
        f"s.{quote_name('position')}, s.{_col(seat, 'user')} FROM {table} t "
        f"LEFT JOIN {quote_name(seat.db_table)} s "
        f"ON s.{_col(seat, 'table')} = {table_id} "
        f"WHERE {table_id} = %s{lock}"
    )


def table_seating_locked(table_id: int) -> Seating | None:
    """Lock the table row and read its seating in one statement; None if there is
    no such table. Cheaper than :func:`table_locked` and :func:`table_seats` when
    only a seat is added (no model instances, one round trip)."""
    with prepared_cursor(_db().alias) as cursor:
        cursor.execute(_seating_sql(), [table_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    options = rows[0][1]  # JSON text (SQLite, or PostgreSQL as Django loads jsonb)
    if isinstance(options, str):
        options = json.loads(options)
    taken = {row[2]: row[3] for row in rows if row[2] is not None}
    return Seating(status=rows[0][0], options=options, taken=taken)


def table_locked(table_id: int) -> Table | None:
    """The table row, locked until the transaction ends (``select_for_update``)."""
    return next(iter(rows_load(Table, _lock_sql(), [table_id])), None)


def table_read(table_id: int) -> Table | None:
    """The table row as it stands, without a lock (for decisions checked again
    under the lock)."""
    return next(iter(rows_load(Table, _read_sql(), [table_id])), None)


def table_seats(table: Table) -> list[Seat]:
    """The table's seats by position. A seat's ``name`` is its player's (the table
    store holds no user row, ``games.stores``)."""
    seats = rows_load(Seat, _seats_sql(), [table.pk])
    for seat in seats:
        seat.table = table
        _user_known(seat)
    return seats


def _user_known(seat: Seat) -> None:
    """Give a person's seat its user as the seat knows it, id and username (other
    fields load on first use, from the users' database), so that ``seat.user``
    costs no query."""
    if seat.user_id is None or not seat.name:
        return
    model = get_user_model()
    seat.user = model.from_db(
        router.db_for_read(model), ["id", "username"], [seat.user_id, seat.name]
    )


@cache
def _table_seats_sql(lock: bool) -> str:
    """PostgreSQL: the table row and its seats (as one JSON array of arrays, by
    position) in one statement, the row locked if ``lock``."""
    seat = Seat._meta
    table = quote_name(Table._meta.db_table)
    table_id = f"t.{quote_name('id')}"
    values = ", ".join(f"s.{quote_name(f.column)}" for f in seat.concrete_fields)
    seats = (
        f"SELECT json_agg(json_build_array({values}) "  # noqa: S608
        f"ORDER BY s.{_col(seat, 'position')}) "
        f"FROM {quote_name(seat.db_table)} s "
        f"WHERE s.{_col(seat, 'table')} = {table_id}"
    )
    return (
        f"SELECT {column_list(Table, 't')}, ({seats}) AS seat_rows "  # noqa: S608
        f"FROM {table} t WHERE {table_id} = %s{' FOR UPDATE OF t' if lock else ''}"
    )


def table_with_seats(table_id: int, *, lock: bool) -> tuple[Table, list[Seat]] | None:
    """The table row and its seats by position, the row locked until the
    transaction ends if ``lock``: one statement on PostgreSQL, :func:`table_locked`
    (or :func:`table_read`) and :func:`table_seats` elsewhere. None if there is no
    such table."""
    db = _db()
    if db.vendor != "postgresql":
        table = table_locked(table_id) if lock else table_read(table_id)
        return None if table is None else (table, table_seats(table))
    found = rows_load(Table, _table_seats_sql(lock), [table_id])
    if not found:
        return None
    table = found[0]
    rows = table.__dict__.pop("seat_rows") or []
    if isinstance(rows, str):  # json as text, as Django's psycopg set-up loads it
        rows = json.loads(rows)
    names = [f.attname for f in Seat._meta.concrete_fields]
    seats = []
    for row in rows:
        seat = Seat.from_db(db.alias, names, row)
        seat.table = table
        _user_known(seat)
        seats.append(seat)
    return table, seats


@cache
def _write_sql(fields: tuple[str, ...], conditional: bool) -> str:
    """PostgreSQL: the table's UPDATE and its log entry's INSERT as one statement,
    the entry written only if the row was (``conditional``: only at the ``seq``
    the move was decided at)."""
    meta = Table._meta
    sets = ", ".join(f"{_col(meta, f)} = %s" for f in fields)
    table = quote_name(meta.db_table)
    where = f"{quote_name('id')} = %s"
    if conditional:
        where += f" AND {_col(meta, 'seq')} = %s"
    event = TableEvent._meta
    cols = ", ".join(_col(event, f) for f in _EVENT_FIELDS)
    casts = ", ".join(
        f"CAST(%s AS {concrete_field(event, f).db_type(connection)})"
        for f in _EVENT_FIELDS[1:]
    )
    return (
        f"WITH u AS (UPDATE {table} SET {sets} WHERE {where} "  # noqa: S608
        f"RETURNING {quote_name('id')}) "
        f"INSERT INTO {quote_name(event.db_table)} ({cols}) "
        f"SELECT u.{quote_name('id')}, {casts} FROM u"
    )


def _event_params(
    table: Table,
    *,
    seq: int,
    seat: int | None,
    actor: str,
    action: dict[str, Any] | None,
    events: list[dict[str, Any]],
) -> list[Any]:
    values = {
        "table": table.pk,
        "seq": seq,
        "seat": seat,
        "actor": actor,
        "action": action,
        "events": events,
        "created_at": timezone.now(),
    }
    meta = TableEvent._meta
    db = _db()
    return [
        concrete_field(meta, f).get_db_prep_save(values[f], db) for f in _EVENT_FIELDS
    ]


def _update_params(table: Table, names: tuple[str, ...]) -> list[Any]:
    meta = Table._meta
    db = _db()
    params = []
    for name in names:
        field = concrete_field(meta, name)
        params.append(field.get_db_prep_save(getattr(table, field.attname), db))
    return params


def move_write(
    table: Table,
    fields: Sequence[str],
    *,
    seat: int | None,
    actor: str,
    action: dict[str, Any] | None,
    events: list[dict[str, Any]],
    expected_seq: int | None = None,
) -> bool:
    """Save ``fields`` of ``table`` and append its log entry at ``table.seq``: one
    statement on PostgreSQL, :func:`event_append` and :func:`table_update`
    elsewhere (call it holding the row lock there).

    With ``expected_seq`` (PostgreSQL only) both are written only if the row is
    still at that ``seq``, which is what a move decided from an unlocked read needs
    instead of the lock; False if it was not (nothing written)."""
    db = _db()
    if db.vendor != "postgresql":
        if expected_seq is not None:
            raise ValueError("a conditional write needs PostgreSQL")
        event_append(
            table=table,
            seq=table.seq,
            seat=seat,
            actor=actor,
            action=action,
            events=events,
        )
        table_update(table, fields)
        return True
    names = tuple(dict.fromkeys(fields))
    params = [*_update_params(table, names), table.pk]
    if expected_seq is not None:
        params.append(expected_seq)
    entry = _event_params(
        table, seq=table.seq, seat=seat, actor=actor, action=action, events=events
    )
    with prepared_cursor(db.alias) as cursor:
        cursor.execute(_write_sql(names, expected_seq is not None), params + entry[1:])
        written: bool = cursor.rowcount == 1
    return written


def event_append(
    *,
    table: Table,
    seq: int,
    seat: int | None,
    actor: str,
    action: dict[str, Any] | None,
    events: list[dict[str, Any]],
) -> None:
    """Append one ``TableEvent`` (the move log is never updated, only added to)."""
    params = _event_params(
        table, seq=seq, seat=seat, actor=actor, action=action, events=events
    )
    with prepared_cursor(_db().alias) as cursor:
        cursor.execute(_event_sql(), params)


def table_update(table: Table, fields: Sequence[str]) -> None:
    """``table.save(update_fields=fields)``, without the query compiler."""
    names = tuple(dict.fromkeys(fields))
    params = [*_update_params(table, names), table.pk]
    with prepared_cursor(_db().alias) as cursor:
        cursor.execute(_update_sql(names), params)
