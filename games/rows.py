"""The rows of one move, read and written with SQL composed once per process.

Decision: a move is four statements (lock the table, read its seats, append the
event, update the table). Through the ORM each of them cost 0.5-0.8 ms of CPU on the
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
from django.db import connection
from django.db.models.options import Options
from django.utils import timezone

from dbtools.prepared import prepared_cursor
from dbtools.rows import column_list, concrete_field, quote_name, rows_load
from games.models import Seat, Table, TableEvent


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
    user = get_user_model()._meta
    seat = Seat._meta
    name = _col(user, "username")
    join = f"u.{quote_name(user.pk.column)} = s.{_col(seat, 'user')}"
    where = f"s.{_col(seat, 'table')} = %s"
    order = f"s.{_col(seat, 'position')}"
    return (
        f"SELECT {column_list(Seat, 's')}, u.{name} AS user_name "  # noqa: S608
        f"FROM {quote_name(seat.db_table)} s "
        f"LEFT JOIN {quote_name(user.db_table)} u ON {join} "
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
    with prepared_cursor() as cursor:
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
    """The table's seats by position, each with its user's id and name loaded (the
    user's other fields load on first use, as with ``only()``)."""
    user_model = get_user_model()
    seats = rows_load(Seat, _seats_sql(), [table.pk])
    for seat in seats:
        seat.table = table
        if seat.user_id is not None:
            seat.user = user_model.from_db(
                connection.alias,
                ["id", "username"],
                [seat.user_id, seat.__dict__["user_name"]],
            )
    return seats


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
    params = [
        concrete_field(meta, f).get_db_prep_save(values[f], connection)
        for f in _EVENT_FIELDS
    ]
    with prepared_cursor() as cursor:
        cursor.execute(_event_sql(), params)


def table_update(table: Table, fields: Sequence[str]) -> None:
    """``table.save(update_fields=fields)``, without the query compiler."""
    names = tuple(dict.fromkeys(fields))
    meta = Table._meta
    params = []
    for name in names:
        field = concrete_field(meta, name)
        params.append(field.get_db_prep_save(getattr(table, field.attname), connection))
    params.append(table.pk)
    with prepared_cursor() as cursor:
        cursor.execute(_update_sql(names), params)
