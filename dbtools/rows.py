"""Rows of any model written and read with SQL built once from the model's metadata.

For hot paths where the ORM's query compilation and model building cost far more CPU
than the SQL itself (``games.rows``, the stake sit-down). The statements return or
take ordinary model instances, so everything else keeps using the ORM. Values go
through the fields' own ``pre_save`` and ``get_db_prep_save``, and on the way back
through the converters the query compiler would apply (the backend's and the
fields', looked up once per statement rather than per call as ``raw()`` does), so
JSON and time zones behave as with the ORM on both PostgreSQL and SQLite. On
PostgreSQL the statements are prepared once per connection (``dbtools.prepared``).
``rows_insert`` writes many new rows at once, as one JSON document on PostgreSQL
(its docstring says which fields it takes).

Each statement goes to the database the routers give the model for writing (the
table store of a move, ``games.stores``, or the default database). The SQL is
built once per process, so every database of a deployment runs the same engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import connection, connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.fields import AutoFieldMixin
from django.db.models.options import Options

from dbtools.prepared import prepared_cursor

RowModel = TypeVar("RowModel", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


def database_of(model: type[Model]) -> BaseDatabaseWrapper:
    """The connection that reads and writes ``model``'s rows now (the routers'
    choice for writing, so that a locking read goes where the write will)."""
    return connections[router.db_for_write(model)]


def quote_name(name: str) -> str:
    """A table or column name quoted for the connection's database."""
    return str(connection.ops.quote_name(name))


def column_list(model: type[Model], alias: str = "") -> str:
    """The model's columns by name, not ``*``: a prepared statement whose result
    gained a column (a migration adding one) would fail until it is prepared again,
    while one that names its columns keeps working."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(
        f"{prefix}{quote_name(f.column)}" for f in model._meta.concrete_fields
    )


def concrete_field(meta: Options[Any], name: str) -> Field[Any, Any]:
    """A concrete column of the model (``get_field`` also returns relations)."""
    field = meta.get_field(name)
    assert isinstance(field, Field)
    return field


def _inserted_fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns an ORM ``save()`` of a new row writes: all but an auto pk."""
    return [
        f
        for f in model._meta.concrete_fields
        if not (f.primary_key and isinstance(f, AutoFieldMixin))
    ]


@cache
def _row_insert_sql(model: type[Model]) -> str:
    """The INSERT of :func:`row_insert` for ``model``, returning an auto pk."""
    meta = model._meta
    fields = _inserted_fields(model)
    cols = ", ".join(quote_name(str(f.column)) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    returning = ""
    if isinstance(meta.pk, AutoFieldMixin):
        returning = f" RETURNING {quote_name(str(meta.pk.column))}"
    table = quote_name(meta.db_table)
    # Every name in the statement comes from the model; values are parameters.
    return f"INSERT INTO {table} ({cols}) VALUES ({marks}){returning}"  # noqa: S608


def row_insert(obj: RowModel) -> RowModel:
    """``obj.save()`` for a new row, without the query compiler.

    No save signals are sent (use it only for models without save receivers). Each
    field's ``pre_save`` (an ``auto_now_add`` time) and ``get_db_prep_save`` run as
    the ORM runs them; an auto pk comes back from the INSERT and the object counts
    as saved. For rows created on a hot path, where ``Model.objects.create`` cost
    more CPU than the INSERT (``bench/stakes.py``).
    """
    model = type(obj)
    db = database_of(model)
    params = [
        f.get_db_prep_save(f.pre_save(obj, True), db) for f in _inserted_fields(model)
    ]
    with prepared_cursor(db.alias) as cursor:
        cursor.execute(_row_insert_sql(model), params)
        if isinstance(model._meta.pk, AutoFieldMixin):
            obj.pk = cursor.fetchone()[0]
    obj._state.adding = False
    obj._state.db = db.alias
    return obj


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

    def load(self, row: Sequence[Any], db: BaseDatabaseWrapper) -> Any:
        values = list(row)
        for position, converters, col in self.converters:
            for convert in converters:
                values[position] = convert(values[position], col, db)
        obj = self.model.from_db(
            db.alias, self.names, [values[p] for p in self.positions]
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


def rows_load(model: type[RowModel], sql: str, params: list[Any]) -> list[RowModel]:
    """``list(model.objects.raw(sql, params))`` for a statement that selects every
    column of ``model`` (and perhaps more, set as attributes), prepared."""
    db = database_of(model)
    with prepared_cursor(db.alias) as cursor:
        cursor.execute(sql, params)
        columns = tuple(c[0] for c in cursor.description)
        rows = cursor.fetchall()
    loader = _loader(model, columns)
    return [loader.load(row, db) for row in rows]


# --- many new rows in one statement

_SIMPLE = (
    models.IntegerField,  # and its big, small and positive kinds
    models.CharField,
    models.TextField,
    models.BooleanField,
    models.FloatField,
)


def _json_value(field: Field[Any, Any]) -> Callable[[Any], Any] | None:
    """How a value of ``field`` goes into the JSON document of :func:`rows_insert`
    (None: as it is), or ``TypeError`` for a kind of field it does not take."""
    if isinstance(field, models.ForeignKey):
        return _json_value(field.target_field)
    if isinstance(field, models.DateTimeField):
        return _iso
    if isinstance(field, models.JSONField):
        if field.encoder is not None:
            raise TypeError(f"rows_insert: {field} has its own JSON encoder")
        return None
    if isinstance(field, _SIMPLE):
        return None
    raise TypeError(f"rows_insert takes no {type(field).__name__} ({field})")


def _iso(value: Any) -> Any:
    return None if value is None else value.isoformat()


@dataclass(frozen=True)
class _Inserter:
    """The statement and the value conversions of :func:`rows_insert` for one model."""

    sql: str
    names: list[str]  # column names, the keys of each row's JSON object
    attnames: list[str]
    convert: list[tuple[int, Callable[[Any], Any]]]  # position, conversion
    stamped: list[Field[Any, Any]]  # auto_now / auto_now_add: their pre_save
    pk: str | None  # the auto pk's attname, returned by the INSERT


@cache
def _inserter(model: type[Model]) -> _Inserter:
    meta = model._meta
    fields = _inserted_fields(model)
    names = [str(f.column) for f in fields]
    cols = ", ".join(quote_name(n) for n in names)
    table = quote_name(meta.db_table)
    pk = None
    returning = ""
    if isinstance(meta.pk, AutoFieldMixin):
        pk = meta.pk.attname
        returning = f" RETURNING {quote_name(str(meta.pk.column))}"
    convert = []
    for position, field in enumerate(fields):
        func = _json_value(field)
        if func is not None:
            convert.append((position, func))
    return _Inserter(
        # The columns' types come from the table's own row type; every name in
        # the statement comes from the model, the rows are one parameter.
        sql=(
            f"INSERT INTO {table} ({cols}) SELECT {cols} "  # noqa: S608
            f"FROM json_populate_recordset(NULL::{table}, %s){returning}"
        ),
        names=names,
        attnames=[f.attname for f in fields],
        convert=convert,
        stamped=[
            f
            for f in fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ],
        pk=pk,
    )


def rows_insert(objs: Sequence[RowModel]) -> list[RowModel]:
    """``bulk_create(objs)`` for new rows of one model, without the query compiler.

    On PostgreSQL the rows travel as one JSON parameter of one prepared statement
    (``json_populate_recordset`` over the table's own row type), returning the auto
    pks in order; the ORM's ``bulk_create`` converts each value of each row through
    the field's methods and psycopg's array dumpers, most of the cost of writing
    hundreds of rows (``bench/arena.py``). The pks come back in the order of the
    rows, as ``bulk_create`` itself relies on. Elsewhere it is ``bulk_create``.

    Takes integer, text, boolean, float, date-time and JSON fields (a JSON field
    without an encoder of its own) and foreign keys to those: ``TypeError`` for
    others, on every database. A JSON value goes into the document as it is, as
    the field's own ``json.dumps`` would write it; None is SQL NULL. A foreign key
    is written from its ``_id`` attribute as it stands: a related object that got
    its pk after it was assigned must be assigned again (``bulk_create`` does
    that itself). Only new rows: ``ValueError`` for one whose auto pk is set. No
    signals are sent, as with ``bulk_create``.
    """
    if not objs:
        return list(objs)
    model = type(objs[0])
    plan = _inserter(model)  # refuses the fields it does not take, everywhere
    if plan.pk is not None and any(getattr(o, plan.pk) is not None for o in objs):
        raise ValueError("rows_insert writes new rows only: a pk is set")
    db = database_of(model)
    if db.vendor != "postgresql":
        return model._default_manager.bulk_create(objs)
    attnames, names = plan.attnames, plan.names
    rows = []
    for obj in objs:
        for field in plan.stamped:
            field.pre_save(obj, True)
        values = [getattr(obj, a) for a in attnames]
        for position, func in plan.convert:
            values[position] = func(values[position])
        rows.append(dict(zip(names, values, strict=True)))
    with prepared_cursor(db.alias) as cursor:
        cursor.execute(plan.sql, [json.dumps(rows)])
        pks = [row[0] for row in cursor.fetchall()] if plan.pk else []
    for obj, pk in zip(objs, pks, strict=False):
        setattr(obj, plan.pk, pk)  # type: ignore[arg-type]
    for obj in objs:
        obj._state.adding = False
        obj._state.db = db.alias
    return list(objs)
