"""Database work from a consumer, off the event loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async


def database_call(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``func`` in the loop's thread pool, each thread with its own connection.

    Channels' default (``thread_sensitive=True``) runs every call of the process on one
    thread, so one table's row lock queues every other table behind it
    (``bench/ws_load.py``'s round-trip median grows about tenfold that way). Moves
    of one table are still ordered by its row lock (``select_for_update``).
    """
    wrapped: Callable[..., Any] = database_sync_to_async(func, thread_sensitive=False)
    return wrapped
