"""The embedded game's table socket: the token, not a session, names the player."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from config.asgi import application
from embed.params import choice_from
from embed.services import embed_game_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@database_sync_to_async
def new_game():
    return embed_game_create(choice=choice_from({}), address="192.0.2.9")


async def open_socket(path: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected  # accepted first, then refused with a close code
    return comm


async def test_the_token_seats_the_guest_with_no_cookie():
    started = await new_game()
    table_id = started.game.table_id
    comm = await open_socket(f"/ws/embed/tables/{table_id}/?token={started.token}")
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "state"
    assert frame["you"] == 0
    assert frame["table"]["id"] == table_id
    assert frame["view"]["hand"], "the guest sees its own tiles"
    await comm.send_json_to({"type": "bogus"})
    error = await comm.receive_json_from(timeout=10)
    assert error["type"] == "error" and error["message"] == "Unknown frame type."
    await comm.disconnect()


async def test_the_socket_speaks_the_frames_language():
    started = await new_game()
    table_id = started.game.table_id
    comm = await open_socket(
        f"/ws/embed/tables/{table_id}/?token={started.token}&lang=es"
    )
    assert (await comm.receive_json_from(timeout=10))["type"] == "state"
    await comm.send_json_to({"type": "bogus"})
    error = await comm.receive_json_from(timeout=10)
    assert error["message"] == "Tipo de mensaje desconocido."
    await comm.disconnect()


@pytest.mark.parametrize(
    "query",
    [
        lambda token: f"token={token[:-3]}xyz",
        lambda token: "token=",
        lambda token: "",
        lambda token: f"token=a{token}",
    ],
)
async def test_a_bad_token_is_refused(query):
    started = await new_game()
    path = f"/ws/embed/tables/{started.game.table_id}/?{query(started.token)}"
    comm = await open_socket(path)
    output = await comm.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": 4401}


async def test_a_token_opens_its_own_table_only():
    mine, other = await new_game(), await new_game()
    path = f"/ws/embed/tables/{other.game.table_id}/?token={mine.token}"
    comm = await open_socket(path)
    output = await comm.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": 4401}


async def test_the_site_table_socket_does_not_take_a_token():
    started = await new_game()
    path = f"/ws/tables/{started.game.table_id}/?token={started.token}"
    comm = await open_socket(path)
    output = await comm.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": 4401}
