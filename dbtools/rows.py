"""Rows of any model written and read with SQL built once from the model's metadata.

For hot paths where the ORM's query compilation and model building cost far more CPU
than the SQL itself (``games.rows``, the stake sit-down). The statements return or
take ordinary model instances, so everything else keeps using the ORM. Values go
through the fields' own ``pre_save`` and ``get_db_prep_save``, and on the way back
through the converters the query compiler would apply (the backend's and the
fields', looked up once per statement rather than per call as ``raw()`` does), so
JSON and time zones behave as with the ORM on both PostgreSQL and SQLite. On
PostgreSQL the statements are prepared once per connection (``dbtools.prepared``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model
from django.db.models.fields import AutoFieldMixin
from django.db.models.options import Options

from dbtools.prepared import prepared_cursor

RowModel = TypeVar("RowModel", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


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


def rows_load(model: type[RowModel], sql: str, params: list[Any]) -> list[RowModel]:
    """``list(model.objects.raw(sql, params))`` for a statement that selects every
    column of ``model`` (and perhaps more, set as attributes), prepared."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        columns = tuple(c[0] for c in cursor.description)
        rows = cursor.fetchall()
    loader = _loader(model, columns)
    return [loader.load(row) for row in rows]
