"""A bot account plays only through the API: the site's table and lobby sockets
are closed for it (4403) after an error frame in words."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import BotAccount
from config.asgi import application
from games.models import Table
from games.services import seat_join, table_create
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def _setup(make_user):
    ana, robo = make_user("ana"), make_user("robo")
    BotAccount.objects.create(user=robo)
    table = table_create(mode=Table.Mode.FRIEND, variant="draw", host=ana)
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, user=robo)
    return ana, robo, table


async def _open(path: str, user) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected  # accepted, then closed with a code the browser can read
    return comm


async def _refused(comm: WebsocketCommunicator) -> None:
    frame = json.loads((await comm.receive_output(timeout=5))["text"])
    assert frame["type"] == "error" and frame["code"] == "bot_account"
    assert "only through the API" in frame["message"]
    assert (await comm.receive_output(timeout=5))["code"] == 4403


@pytest.mark.asyncio
async def test_the_table_socket_refuses_a_bot(make_user):
    ana, robo, table = await _setup(make_user)
    await _refused(await _open(f"/ws/tables/{table.pk}/", robo))
    person = await _open(f"/ws/tables/{table.pk}/", ana)
    frame = json.loads((await person.receive_output(timeout=5))["text"])
    assert frame["type"] != "error"
    await person.disconnect()


@pytest.mark.asyncio
async def test_the_lobby_socket_refuses_a_bot(make_user):
    _ana, robo, _table = await _setup(make_user)
    await _refused(await _open("/ws/lobby/", robo))
