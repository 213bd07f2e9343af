"""A server stopped with SIGTERM (``python -m config.serve``, as every deployment
runs it) sends each open socket a close frame with 1001 before it exits, so the
page can say the server is restarting and reconnect."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from django.db import connection

from tests.support import database_url_of_tests, session_cookie, tables
from tests.support.servers import Server, daphne_start

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The ports this suite's own servers may take.
PORTS = range(18700, 18800)


def port_in_range() -> int:
    for port in PORTS:
        with contextlib.suppress(OSError), socket.socket() as sock:
            sock.bind(("127.0.0.1", port))
            return port
    raise RuntimeError("no free port in 18700-18799")


@pytest.fixture
def server(tmp_path: Path, transactional_db) -> Iterator[tuple[Server, Path]]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
        env.pop("DATABASE_URL", None)
    else:
        env["DATABASE_URL"] = database_url_of_tests()
    log = tmp_path / "daphne.log"
    daphne = daphne_start(env, port=port_in_range(), log=log)
    yield daphne, log
    daphne.stop()


def test_sigterm_closes_every_socket_with_1001(make_user, server):
    daphne, log = server
    table, ana, _ = tables.two_human_table(make_user)
    cookie = session_cookie(ana)
    url = f"127.0.0.1:{daphne.port}"

    async def run() -> list[int | None]:
        sockets = [
            await websockets.connect(
                f"ws://{url}{path}",
                origin=f"http://{url}",
                additional_headers={"Cookie": cookie},
                open_timeout=10,
            )
            for path in (f"/ws/tables/{table.pk}/", "/ws/presence/")
        ]
        for ws in sockets:  # each socket is served (its first frame came)
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]
        os.killpg(daphne.proc.pid, signal.SIGTERM)
        codes: list[int | None] = []
        for ws in sockets:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 15)
            received = closed.value.rcvd
            codes.append(received.code if received is not None else None)
        return codes

    # ``None``: the TCP connection dropped with no close frame.
    assert asyncio.run(run()) == [1001, 1001]
    daphne.proc.wait(timeout=15)
    assert "Traceback" not in log.read_text()
