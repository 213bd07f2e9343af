"""The real server, started as every deployment starts it (``python -m config.serve``):
an oversize frame is closed with 1009, refusals arrive as close codes 4401/4404, and
a nested frame is refused without a traceback in the server's log."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from django.db import connection

from config.serve import DEFLATE_WINDOW_BITS
from games.models import Seat
from tests.support import database_url_of_tests, session_cookie, tables
from tests.support.servers import daphne_start

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(tmp_path: Path, transactional_db) -> Iterator[tuple[str, Path]]:
    """``config.serve`` on the tests' database; its host:port and its log."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
        env.pop("DATABASE_URL", None)
    else:
        env["DATABASE_URL"] = database_url_of_tests()
    log = tmp_path / "daphne.log"
    daphne = daphne_start(env, log=log)
    yield f"127.0.0.1:{daphne.port}", log
    daphne.stop()


async def _open(url: str, path: str, cookie: str | None):
    headers = {"Cookie": cookie} if cookie else {}
    return await websockets.connect(
        f"ws://{url}{path}",
        origin=f"http://{url}",
        additional_headers=headers,
        open_timeout=10,
        max_size=None,
    )


async def _closed_with(ws) -> int:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        for _ in range(10):
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None, "no close frame: the TCP connection dropped"
    return closed.value.rcvd.code


def test_oversize_nested_and_refused_sockets_over_the_real_server(make_user, server):
    url, log = server
    table, ana, _ = tables.two_human_table(make_user)
    cookie = session_cookie(ana)
    stranger = session_cookie(make_user("stranger"))

    async def run() -> dict[str, object]:
        out: dict[str, object] = {}
        ws = await _open(url, f"/ws/tables/{table.pk}/", cookie)
        first = json.loads(await ws.recv())
        out["first"] = first["type"]
        await ws.send(
            '{"type": "act", "seq": 1, "action": ' + "[" * 1000 + "]" * 1000 + "}"
        )
        out["nested"] = json.loads(await ws.recv())["code"]
        await ws.send(b"\x00\x01")
        out["binary"] = json.loads(await ws.recv())["code"]
        await ws.send(json.dumps({"type": "sync", "pad": "x" * (1100 * 1024)}))
        out["huge"] = await _closed_with(ws)
        anonymous = await _open(url, f"/ws/tables/{table.pk}/", None)
        out["anonymous"] = await _closed_with(anonymous)
        missing = await _open(url, "/ws/tables/999999/", stranger)
        out["missing"] = await _closed_with(missing)
        presence = await _open(url, "/ws/presence/", None)
        out["presence"] = await _closed_with(presence)
        return out

    out = asyncio.run(run())
    assert out == {
        "first": "state",
        "nested": "bad_frame",
        "binary": "bad_frame",
        "huge": 1009,
        "anonymous": 4401,
        "missing": 4404,
        "presence": 4401,
    }
    # The socket that was closed for its size ran its disconnect bookkeeping.
    deadline = time.monotonic() + 10
    while Seat.objects.get(table=table, position=0).offline_at is None:
        assert time.monotonic() < deadline, (
            "the seat's last socket was not counted closed"
        )
        time.sleep(0.1)
    assert "Traceback" not in log.read_text()


def test_frames_are_compressed_for_a_client_that_offers_it(make_user, server):
    """permessage-deflate for a client offering it (as every browser does), none
    for a client that does not; frames arrive whole either way."""
    url, log = server
    table, ana, _ = tables.two_human_table(make_user)
    cookie = session_cookie(ana)

    async def run() -> list[tuple[str | None, str]]:
        seen = []
        for compression in ("deflate", None):
            ws = await websockets.connect(
                f"ws://{url}/ws/tables/{table.pk}/",
                origin=f"http://{url}",
                additional_headers={"Cookie": cookie},
                open_timeout=10,
                compression=compression,
            )
            first = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "sync"}))
            again = json.loads(await ws.recv())
            assert again["seq"] == first["seq"]
            seen.append(
                (ws.response.headers.get("Sec-WebSocket-Extensions"), first["type"])
            )
            await ws.close()
        return seen

    (offered, first), (plain, plain_first) = asyncio.run(run())
    assert offered is not None and offered.startswith("permessage-deflate")
    # What the client sends is compressed with the server's small window too.
    assert f"client_max_window_bits={DEFLATE_WINDOW_BITS}" in offered
    assert plain is None
    assert first == plain_first == "state"
    assert "Traceback" not in log.read_text()
