"""The rows of one move, read and written with SQL composed once per process.

Decision: a move is four statements (lock the table, read its seats, append the
event, update the table). Through the ORM each of them cost 0.5-0.8 ms of CPU on the
benchmark machine, ten times the SQL itself: query compilation and model building.
At 100 busy tables that time is spent under the daphne process's one interpreter
lock, where every player's round trip waits for it (``bench/ws_load.py``).
These functions issue the same statements with SQL built once from the models'
metadata and return ordinary model instances, so everything else keeps using the ORM.
Values go through the fields' own ``get_db_prep_save`` and, on the way back,
through the converters the query compiler would apply (the backend's and the
fields', looked up once per statement rather than per call as ``raw()`` does), so
JSON and time zones behave as with the ORM on both PostgreSQL and SQLite. On
PostgreSQL the statements are prepared once per connection (``dbtools.prepared``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Field, Model
from django.db.models.fields import AutoFieldMixin
from django.db.models.options import Options
from django.utils import timezone

from dbtools.prepared import prepared_cursor
from games.models import Seat, Table, TableEvent


def _q(name: str) -> str:
    return str(connection.ops.quote_name(name))


def _columns(model: type[Model], alias: str = "") -> str:
    """The model's columns by name, not ``*``: a prepared statement whose result
    gained a column (a migration adding one) would fail until it is prepared again,
    while one that names its columns keeps working."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{_q(f.column)}" for f in model._meta.concrete_fields)


@cache
def _lock_sql() -> str:
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = _q(Table._meta.db_table)
    # Every name in these statements comes from the models; values are parameters.
    return (
        f"SELECT {_columns(Table)} FROM {table} "  # noqa: S608
        f"WHERE {_q('id')} = %s{lock}"
    )


@cache
def _read_sql() -> str:
    table = _q(Table._meta.db_table)
    return f"SELECT {_columns(Table)} FROM {table} WHERE {_q('id')} = %s"  # noqa: S608


@cache
def _seats_sql() -> str:
    user = get_user_model()._meta
    seat = Seat._meta
    name = _q(user.get_field("username").column)
    join = f"u.{_q(user.pk.column)} = s.{_q(seat.get_field('user').column)}"
    where = f"s.{_q(seat.get_field('table').column)} = %s"
    order = f"s.{_q(seat.get_field('position').column)}"
    return (
        f"SELECT {_columns(Seat, 's')}, u.{name} AS user_name "  # noqa: S608
        f"FROM {_q(seat.db_table)} s "
        f"LEFT JOIN {_q(user.db_table)} u ON {join} WHERE {where} ORDER BY {order}"
    )


_EVENT_FIELDS = ("table", "seq", "seat", "actor", "action", "events", "created_at")


def _field(meta: Options[Any], name: str) -> Field[Any, Any]:
    """A concrete column of the model (``get_field`` also returns relations)."""
    field = meta.get_field(name)
    assert isinstance(field, Field)
    return field


@cache
def _event_sql() -> str:
    meta = TableEvent._meta
    cols = ", ".join(_q(str(_field(meta, f).column)) for f in _EVENT_FIELDS)
    marks = ", ".join(["%s"] * len(_EVENT_FIELDS))
    return f"INSERT INTO {_q(meta.db_table)} ({cols}) VALUES ({marks})"  # noqa: S608


@cache
def _update_sql(fields: tuple[str, ...]) -> str:
    meta = Table._meta
    sets = ", ".join(f"{_q(str(_field(meta, f).column))} = %s" for f in fields)
    return f"UPDATE {_q(meta.db_table)} SET {sets} WHERE {_q('id')} = %s"  # noqa: S608


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
    table_col = _q(str(_field(seat, "table").column))
    return (
        f"SELECT t.{_q('status')}, t.{_q('options')}, s.{_q('position')}, "  # noqa: S608
        f"s.{_q(str(_field(seat, 'user').column))} FROM {_q(Table._meta.db_table)} t "
        f"LEFT JOIN {_q(seat.db_table)} s ON s.{table_col} = t.{_q('id')} "
        f"WHERE t.{_q('id')} = %s{lock}"
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


def _inserted_fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns an ORM ``save()`` of a new row writes: all but an auto pk."""
    return [
        f
        for f in model._meta.concrete_fields
        if not (f.primary_key and isinstance(f, AutoFieldMixin))
    ]


@cache
def _row_insert_sql(model: type[Model]) -> str:
    meta = model._meta
    fields = _inserted_fields(model)
    cols = ", ".join(_q(str(f.column)) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    returning = ""
    if isinstance(meta.pk, AutoFieldMixin):
        returning = f" RETURNING {_q(str(meta.pk.column))}"
    return f"INSERT INTO {_q(meta.db_table)} ({cols}) VALUES ({marks}){returning}"  # noqa: S608


RowModel = TypeVar("RowModel", bound=Model)


def row_insert(obj: RowModel) -> RowModel:
    """``obj.save()`` for a new row (no save signals: none of these models has a
    receiver), without the query compiler: each field's ``pre_save`` (an
    ``auto_now_add`` time) and ``get_db_prep_save`` as the ORM does; an auto pk
    comes back from the INSERT and the object counts as saved. For the rows a
    stake sit-down creates, where ``Model.objects.create`` cost more CPU than
    the INSERT (``bench/stakes.py``)."""
    model = type(obj)
    params = [
        f.get_db_prep_save(f.pre_save(obj, True), connection)
        for f in _inserted_fields(model)
    ]
    with prepared_cursor() as cursor:
        cursor.execute(_row_insert_sql(model), params)
        if isinstance(model._meta.pk, AutoFieldMixin):
            obj.pk = cursor.fetchone()[0]
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Loader:
    """How the columns of one statement become instances of ``model``: what
    ``raw()`` works out on every call (the fields' positions and the converters of
    the backend and the fields), worked out once per statement."""

    model: type[Model]
    names: list[str]  # attnames, in the order of ``positions``
    positions: list[int]
    converters: list[tuple[int, list[Converter], Any]]  # position, converters, col
    extras: list[tuple[str, int]]  # columns that are not fields, set as attributes

    def load(self, row: Sequence[Any]) -> Any:
        values = list(row)
        for position, converters, col in self.converters:
            for convert in converters:
                values[position] = convert(values[position], col, connection)
        obj = self.model.from_db(
            connection.alias, self.names, [values[p] for p in self.positions]
        )
        for name, position in self.extras:
            setattr(obj, name, values[position])
        return obj


@cache
def _loader(model: type[Model], columns: tuple[str, ...]) -> _Loader:
    by_column = {f.column: f for f in model._meta.concrete_fields}
    placed = [(f, columns.index(f.column)) for f in model._meta.concrete_fields]
    converters = []
    for position, column in enumerate(columns):
        if (field := by_column.get(column)) is not None:
            col = field.get_col(model._meta.db_table)
            # What the query compiler applies: the backend's, then the field's.
            found = connection.ops.get_db_converters(col) + col.get_db_converters(
                connection
            )
            if found:
                converters.append((position, found, col))
    return _Loader(
        model=model,
        names=[f.attname for f, _ in placed],
        positions=[p for _, p in placed],
        converters=converters,
        extras=[(c, p) for p, c in enumerate(columns) if c not in by_column],
    )


def _rows_load(model: type[RowModel], sql: str, params: list[Any]) -> list[RowModel]:
    """``list(model.objects.raw(sql, params))`` for a statement that selects every
    column of ``model`` (and perhaps more, set as attributes), prepared."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        columns = tuple(c[0] for c in cursor.description)
        rows = cursor.fetchall()
    loader = _loader(model, columns)
    return [loader.load(row) for row in rows]


def table_locked(table_id: int) -> Table | None:
    """The table row, locked until the transaction ends (``select_for_update``)."""
    return next(iter(_rows_load(Table, _lock_sql(), [table_id])), None)


def table_read(table_id: int) -> Table | None:
    """The table row as it stands, without a lock (for decisions checked again
    under the lock)."""
    return next(iter(_rows_load(Table, _read_sql(), [table_id])), None)


def table_seats(table: Table) -> list[Seat]:
    """The table's seats by position, each with its user's id and name loaded (the
    user's other fields load on first use, as with ``only()``)."""
    user_model = get_user_model()
    seats = _rows_load(Seat, _seats_sql(), [table.pk])
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
        _field(meta, f).get_db_prep_save(values[f], connection) for f in _EVENT_FIELDS
    ]
    with prepared_cursor() as cursor:
        cursor.execute(_event_sql(), params)


def table_update(table: Table, fields: Sequence[str]) -> None:
    """``table.save(update_fields=fields)``, without the query compiler."""
    names = tuple(dict.fromkeys(fields))
    meta = Table._meta
    params = []
    for name in names:
        field = _field(meta, name)
        params.append(field.get_db_prep_save(getattr(table, field.attname), connection))
    params.append(table.pk)
    with prepared_cursor() as cursor:
        cursor.execute(_update_sql(names), params)
