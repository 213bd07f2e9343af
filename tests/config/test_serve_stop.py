"""SIGTERM stops ``config.serve`` (daphne, the embedded worker and beat) within
10 s, even while one of its threads waits for a locked SQLite database: the
interpreter would otherwise wait for that thread at exit (a busy timeout of 20 s,
and for ever on a wedged lock)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection
from websockets.sync.client import connect

from tests.support import session_cookie
from tests.support.servers import daphne_start

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "sqlite", reason="the embedded default (make run)"
    ),
]


def test_sigterm_stops_the_server_while_a_thread_waits_for_the_database(
    tmp_path: Path, make_user
):
    cookie = session_cookie(make_user())
    database = str(connection.settings_dict["NAME"])
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "REDIS_URL"}
    }
    env.update(SQLITE_PATH=database, EMBEDDED_WORKER="1")
    server = daphne_start(env, log=tmp_path / "daphne.log")
    locker = sqlite3.connect(database, timeout=0, isolation_level=None)
    try:
        locker.execute("BEGIN IMMEDIATE")  # every writer now waits in its busy handler
        with connect(
            f"ws://127.0.0.1:{server.port}/ws/presence/",
            additional_headers={"Origin": "http://127.0.0.1", "Cookie": cookie},
            open_timeout=10,
        ):
            # The socket is accepted; its first write (presence) waits for the lock.
            time.sleep(0.5)  # let that write reach the lock (not an assertion)
            os.killpg(server.proc.pid, signal.SIGTERM)
            try:
                server.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pytest.fail("still running 10 s after SIGTERM")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
        server.stop()
