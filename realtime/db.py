"""Database work from a consumer, off the event loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.db import OperationalError


def database_call(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``func`` in the loop's thread pool, each thread with its own connection.

    Channels' default (``thread_sensitive=True``) runs every call of the process on one
    thread, so one table's row lock queues every other table behind it
    (``bench/ws_load.py``'s round-trip median grows about tenfold that way). Moves
    of one table are still ordered by its row lock (``select_for_update``).
    """
    wrapped: Callable[..., Any] = database_sync_to_async(func, thread_sensitive=False)
    return wrapped


# Whether a database error means the server has no connection to spare.
#
# PostgreSQL refuses a connection over ``max_connections`` with SQLSTATE 53300
# ("sorry, too many clients already", or "remaining connection slots are reserved"),
# and PgBouncer refuses one over its pool with "no more connections allowed". That
# is a busy server, not a fault: pages answer 503 and sockets an error frame to
# retry on, never a 500.

TOO_MANY_CONNECTIONS = "53300"
MESSAGES = (
    "too many clients",
    "too many connections",
    "remaining connection slots are reserved",
    "no more connections allowed",
)


def database_busy(exc: BaseException) -> bool:
    """True for an error refusing a database connection because none is free."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__ or exc
    if getattr(cause, "sqlstate", None) == TOO_MANY_CONNECTIONS:
        return True
    text = str(exc).lower()
    return any(message in text for message in MESSAGES)
