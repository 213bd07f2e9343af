"""Django's PostgreSQL backend, without the health check's ``SELECT 1`` on a busy
connection.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` before the first query of each
request, and each socket frame is a request to it (``realtime.db.database_call``):
one more round trip on every move (``bench/move_cost.py`` counts it on the wire).
Here a connection that ran a query within ``QUIET_SECONDS`` and that psycopg does not
know to be closed or broken counts as usable without asking the server; a quieter
one is checked as Django checks it. What this gives up: a server restart within
those seconds of a connection's last query fails that connection's next query once
(Django then drops the connection, and the next request opens a new one), where the
check would have reconnected first.
"""

from __future__ import annotations

import time
from typing import Any

from django.db.backends.postgresql import base

# Seconds since a connection's last query within which it is trusted without a
# ``SELECT 1``: one idle longer than this (a quiet night, a server restart) is
# checked as Django does. daphne spreads frames over a pool of threads, each with
# its own connection, so at a few moves a second some sit idle for several seconds:
# at 5 s, ``bench/move_cost.py`` still counted 0.06 ``SELECT 1`` per move.
QUIET_SECONDS = 30.0


class DatabaseWrapper(base.DatabaseWrapper):
    _used_at = 0.0

    def create_cursor(self, name: Any = None) -> Any:
        self._used_at = time.monotonic()
        return super().create_cursor(name)

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None:
            return False
        if (
            not connection.closed
            and not connection.broken
            and time.monotonic() - self._used_at < QUIET_SECONDS
        ):
            return True
        usable: bool = super().is_usable()
        if usable:
            self._used_at = time.monotonic()
        return usable
