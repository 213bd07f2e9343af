"""The presence socket's limits: its frame rate, the sockets one player may hold
open, and counts pushed only when a player comes online or goes offline."""

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from config.asgi import application
from tests.accounts.test_presence import cookie_header, make, next_count, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Socket slots live in the cache, which outlives a test's database."""
    cache.clear()
    yield
    cache.clear()


async def test_presence_frames_are_rate_limited(make_user):
    comm, ok = await open_socket(await make(make_user, "pinger"))
    assert ok
    await next_count(comm)
    for _ in range(12):
        await comm.send_json_to({"type": "ping"})
    replies = [await comm.receive_json_from(timeout=5) for _ in range(12)]
    limited = [r for r in replies if r["type"] == "error"]
    assert limited and all(r["code"] == "rate_limited" for r in limited)
    assert limited[0]["message"]
    assert any(r["type"] == "pong" for r in replies)
    await comm.disconnect()


async def test_count_is_pushed_only_when_a_player_comes_or_goes(make_user):
    ana, ben = await make(make_user, "ana"), await make(make_user, "ben")
    watcher, _ = await open_socket(ana)
    assert await next_count(watcher) == 1
    tab1, _ = await open_socket(ben)
    assert await next_count(tab1) == 2
    assert await next_count(watcher) == 2  # ben came online
    tab2, _ = await open_socket(ben)
    assert await next_count(tab2) == 2  # the new tab gets the count itself
    assert await watcher.receive_nothing(timeout=0.5)  # ben was online already
    await tab2.disconnect()
    assert await watcher.receive_nothing(timeout=0.5)  # ben is still online
    await tab1.disconnect()
    assert await next_count(watcher) == 1  # ben went offline (after his grace)
    await watcher.disconnect()


async def test_a_page_change_within_the_grace_is_not_a_coming_and_going(
    make_user, settings
):
    settings.PRESENCE_OFFLINE_GRACE_SECONDS = 1.0
    ana, ben = await make(make_user, "ana"), await make(make_user, "ben")
    watcher, _ = await open_socket(ana)
    assert await next_count(watcher) == 1
    page, _ = await open_socket(ben)
    assert await next_count(page) == 2
    assert await next_count(watcher) == 2
    await page.disconnect()  # ben follows a link: the next page opens its socket
    page, _ = await open_socket(ben)
    assert await next_count(page) == 2
    assert await watcher.receive_nothing(timeout=1.5)  # past the grace: no change
    await page.disconnect()
    assert await next_count(watcher) == 1  # and when he does leave, it shows
    await watcher.disconnect()


async def _lobby(user) -> tuple[WebsocketCommunicator, bool]:
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", await cookie_header(user)),
    ]
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    return comm, connected


async def test_sockets_per_player_and_kind_are_capped(make_user, settings):
    settings.WS_SOCKETS_PER_PLAYER = 2
    cat, dot = await make(make_user, "cat"), await make(make_user, "dot")
    held = []
    for _ in range(2):
        comm, ok = await open_socket(cat)
        assert ok
        await next_count(comm)
        held.append(comm)

    over, ok = await open_socket(cat)
    assert ok  # accepted, so that the page can read why it is closed
    refusal = await over.receive_json_from(timeout=5)
    assert refusal["type"] == "error" and refusal["code"] == "too_many_sockets"
    assert "too many pages" in refusal["message"]
    closed = await over.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == 4429
    assert closed["reason"] and len(closed["reason"].encode()) <= 123

    # Another player, and another kind of socket of the same player, are free.
    other, ok = await open_socket(dot)
    assert ok and await next_count(other) >= 1
    lobby, ok = await _lobby(cat)
    assert ok
    assert (await lobby.receive_json_from(timeout=5))["type"] == "state"

    # A closed page frees its place.
    await held.pop().disconnect()
    again, ok = await open_socket(cat)
    assert ok and await next_count(again) >= 1
    for comm in [*held, again, other, lobby]:
        await comm.disconnect()
