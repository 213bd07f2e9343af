"""Where a table's rows live: the table store, one database per table id.

A deployment past one PostgreSQL primary keeps its tables on several
(docs/capacity.md): ``settings.TABLE_DATABASES`` lists their aliases, and a table
lives in ``TABLE_DATABASES[(id - 1) % n]``, the database whose id sequence starts
at that position and steps by ``n``. With the one alias ``default`` (the embedded
default and a single primary) everything stays where it is.

A move selects its table's store (:func:`table_store`) for the length of its
transaction; the router sends every query of the table-store models made
meanwhile to that database, as the raw statements of ``games.rows`` and
``dbtools.rows`` ask the routers too. The table store holds no user row: a seat
keeps the name its player sat down with, and its ``user`` is a plain id there,
checked by the application rather than by a foreign key across databases.

What this covers: a move, the path every table takes thousands of times. Pages
that list many tables (history, My games, the lobby) read the default database,
so spreading existing tables over several stores also needs those reads and
table creation to choose a store; docs/capacity.md says what remains.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model

# The models whose rows live in a table's store (``app_label.model_name``).
TABLE_STORE_MODELS = frozenset(
    {
        "games.table",
        "games.seat",
        "games.tableevent",
        "games.finishstep",
        "games.chainreserve",
        "games.offlinegame",
    }
)

_selected: ContextVar[str | None] = ContextVar("table_store", default=None)


def table_database(table_id: int) -> str:
    """The database alias holding table ``table_id``."""
    aliases: list[str] = settings.TABLE_DATABASES
    return aliases[(table_id - 1) % len(aliases)]


@contextmanager
def table_store(table_id: int) -> Iterator[str]:
    """Send the table-store models' queries to table ``table_id``'s database until
    the block ends; yields its alias (for ``transaction.atomic(using=...)``)."""
    alias = table_database(table_id)
    token = _selected.set(alias)
    try:
        yield alias
    finally:
        _selected.reset(token)


def table_alias() -> str:
    """The database of the table store selected now, or the default one."""
    return _selected.get() or DEFAULT_DB_ALIAS


def _of_store(model: type[Model] | Model) -> bool:
    """Whether ``model`` (a class or an instance, even a lazy one) lives in the
    table store."""
    return model._meta.label_lower in TABLE_STORE_MODELS


def stores_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """A system check: more than one table store is refused until tables are
    created in their store, the finish's consequences, the sweeps and the pages
    that list tables read every store (docs/capacity.md). With the router alone,
    a table created in ``default`` under an id another store owns could not be
    found by its own moves."""
    aliases = list(getattr(settings, "TABLE_DATABASES", [DEFAULT_DB_ALIAS]))
    if aliases == [DEFAULT_DB_ALIAS]:
        return []
    return [
        Error(
            f"TABLE_DATABASES lists {aliases!r}: only ['default'] is supported "
            "end to end.",
            hint="Several table stores still need table creation, the finish's "
            "consequences, the sweeps and the listing pages to choose or read "
            "every store; see docs/capacity.md.",
            id="games.E001",
        )
    ]


class TableStoreRouter:
    """``DATABASE_ROUTERS``: the table-store models to the selected table's
    database; anything else, and these models outside a move, are left to the
    default routing (the instance's own database, else ``default``)."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        alias = _selected.get()
        return alias if alias is not None and _of_store(model) else None

    db_for_write = db_for_read

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool | None:
        """A seat may point at a user of another database (by id only)."""
        if _of_store(obj1) or _of_store(obj2):
            return True
        return None
