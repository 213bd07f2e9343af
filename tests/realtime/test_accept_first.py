"""Sockets accept before any database work, the session and user behind the cookie
included, so a slow database never turns into a reset handshake (daphne drops one
left unanswered for 5 s); and a search whose last lobby page closed is cancelled."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from importlib import import_module
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.urls import reverse

import accounts.consumers
import games.consumers
import matchmaking.pools.consumers
import matchmaking.pools.services
from config.asgi import application
from games.services import table_practice_create
from matchmaking.models import Search
from matchmaking.pools.services import search_start
from matchmaking.pools.tasks import search_unwatched_task
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_broker(queued, monkeypatch):
    """Timed jobs of the tables and extra waves are recorded, not queued."""
    monkeypatch.setattr(matchmaking.pools.services, "_wave_soon", lambda pool_key: None)


def held_back(monkeypatch: Any, module: Any, name: str) -> threading.Event:
    """Make ``module.name`` wait for the returned event: a database that stalls."""
    release = threading.Event()
    real: Callable[..., Any] = getattr(module, name)

    def slow(*args: Any, **kwargs: Any) -> Any:
        release.wait(timeout=60)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)
    return release


async def socket(user: Any, path: str) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    return WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )


async def practice_path(user: Any) -> str:
    table = await database_sync_to_async(table_practice_create)(
        user=user,
        variant="block",
        options={},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    return f"/ws/tables/{table.pk}/"


@pytest.mark.parametrize(
    ("kind", "module", "first_call", "frame"),
    [
        ("table", games.consumers, "table_membership", "state"),
        ("lobby", matchmaking.pools.consumers, "search_touch", "state"),
        ("presence", accounts.consumers, "presence_connect", "online"),
    ],
)
async def test_the_handshake_completes_while_the_first_database_call_stalls(
    make_user, monkeypatch, kind, module, first_call, frame
):
    user = await database_sync_to_async(make_user)()
    path = {"lobby": "/ws/lobby/", "presence": "/ws/presence/"}.get(kind)
    comm = await socket(user, path or await practice_path(user))
    release = held_back(monkeypatch, module, first_call)
    try:
        connected, _ = await comm.connect(timeout=10)
        assert connected
    finally:
        release.set()
    for _ in range(5):
        if (await comm.receive_json_from(timeout=10))["type"] == frame:
            break
    else:
        raise AssertionError(f"no {frame} frame once the database answered")
    await comm.disconnect()


PATHS = ["table", "/ws/lobby/", "/ws/presence/"]


@pytest.mark.parametrize("where", PATHS)
async def test_the_handshake_completes_while_the_session_load_stalls(
    make_user, monkeypatch, where
):
    """The first database call of any socket, the session behind its cookie, is
    made after the handshake is answered; the consumer's frames follow."""
    user = await database_sync_to_async(make_user)()
    comm = await socket(user, await practice_path(user) if where == "table" else where)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    release = held_back(monkeypatch, store, "load")
    try:
        connected, _ = await comm.connect(timeout=10)
        assert connected
    finally:
        release.set()
    first = await comm.receive_json_from(timeout=10)
    assert first["type"] in {"state", "online"}
    await comm.disconnect()


@pytest.mark.parametrize("where", PATHS)
async def test_an_anonymous_socket_is_accepted_then_closed_with_4401(
    make_user, monkeypatch, where
):
    owner = await database_sync_to_async(make_user)()
    path = await practice_path(owner) if where == "table" else where
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    closed = await comm.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": 4401}


def waiting(user_id: int) -> bool:
    return Search.objects.filter(user_id=user_id, status=Search.Status.WAITING).exists()


async def test_a_search_ends_when_no_lobby_page_is_open_a_moment_after_a_close(
    make_user, monkeypatch
):
    checks: list[int] = []
    monkeypatch.setattr(
        matchmaking.pools.consumers,
        "search_unwatched_check_later",
        lambda user_id: checks.append(user_id),
    )
    user = await database_sync_to_async(make_user)()
    first, second = await socket(user, "/ws/lobby/"), await socket(user, "/ws/lobby/")
    for comm in (first, second):
        assert (await comm.connect(timeout=10))[0]
        await comm.receive_json_from(timeout=10)
    await database_sync_to_async(search_start)(user_id=user.pk, pool_key="draw-2")
    await first.disconnect()
    assert checks == [user.pk]
    await database_sync_to_async(search_unwatched_task)(user.pk)
    assert await database_sync_to_async(waiting)(user.pk)  # another page is open
    await second.disconnect()
    assert checks == [user.pk, user.pk]
    await database_sync_to_async(search_unwatched_task)(user.pk)
    assert not await database_sync_to_async(waiting)(user.pk)


def test_the_lobby_renders_find_disabled_until_its_socket_is_live(client, make_user):
    """lobby.js enables Find on the socket's first state frame."""
    client.force_login(make_user())
    html = client.get(reverse("lobby")).content.decode()
    buttons = re.findall(r'<button[^>]*class="button find"[^>]*>', html)
    assert buttons
    assert all(" disabled" in b for b in buttons)
