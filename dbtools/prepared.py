"""A cursor whose statements PostgreSQL parses and plans once per connection.

For the few plain-SQL statements of a hot path (``games.rows``, the stake sit-down,
``economy.ledger``'s entry-fee lock and posting): parsing and planning them was about a
third of their PostgreSQL CPU on the benchmark machine (``bench/stakes.py``; per
statement, ``log_parser_stats`` and ``log_planner_stats``). Values are bound on the
server (``$1``) instead of quoted into the text by the client, and each statement is
prepared on its first use by a connection and executed by name from then on. That pays
on a connection kept between requests (workers, ``CELERY_DB_REUSE_MAX``; daphne keeps
none, docs/operations.md) and behind a pooler; a connection opened per request prepares
each statement once, one round trip more. Behind a pooler in transaction mode, it needs
one that keeps prepared statements (PgBouncer 1.21 or later with
``max_prepared_statements``). PostgreSQL re-plans a prepared statement by itself when a
table it reads changes (a migration). On SQLite it is the ordinary cursor. Django's
cursor wrapper is kept, so query logging, execute wrappers and ``CaptureQueriesContext``
see these statements as any other.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.utils import CursorWrapper

ONLY_WHEN_ASKED = 2**62  # a prepare threshold that no statement's count reaches


@cache
def _cursor_class() -> type[Any]:
    import psycopg

    class PreparedCursor(psycopg.Cursor[Any]):
        def execute(
            self, query: Any, params: Any = None, **kwargs: Any
        ) -> PreparedCursor:
            kwargs["prepare"] = True
            super().execute(query, params, **kwargs)
            return self

        def _send_query_prepared(self, name: bytes, pgq: Any, **kwargs: Any) -> None:
            # Keep the statement's text for Django's query log, as psycopg does
            # for a statement it does not prepare.
            self._query = pgq
            super()._send_query_prepared(name, pgq, **kwargs)

    return PreparedCursor


def prepared_cursor(using: str = DEFAULT_DB_ALIAS) -> CursorWrapper:
    """A cursor of the database ``using`` (use it in ``with``) whose statements are
    prepared on PostgreSQL."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    psycopg_connection = connection.connection
    if psycopg_connection.prepare_threshold is None:
        # Django turns preparing off (``None``), which ``prepare=True`` obeys too. A
        # threshold no statement reaches lets this cursor prepare, and only it:
        # Django's own cursors bind on the client and never prepare.
        psycopg_connection.prepare_threshold = ONLY_WHEN_ASKED
    raw = _cursor_class()(psycopg_connection)
    wrapped: CursorWrapper = connection._prepare_cursor(raw)  # type: ignore[attr-defined]
    return wrapped
