"""A Swiss event's socket: the event on connecting, presence kept while it is
open (only present players are paired), "paired" to each player seated by a
round's start, an update on a game's end, refusals of strangers and of unknown
events."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from tests.support import session_cookie
from tests.tournaments.swiss.helpers import end_game, event_of, games_of
from tournaments.swiss.presence import present_among
from tournaments.swiss.rounds import swiss_advance
from tournaments.swiss.services import swiss_join

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def sync_thread_connection_closed():
    """Close the connection these tests opened in channels' shared sync thread while
    the database is still allowed: a later test without one would otherwise find it
    there when a consumer closes old connections."""
    yield
    await database_sync_to_async(connections.close_all)()


async def swiss_socket(user, event_id, *, signed_in=True):
    headers = [(b"origin", b"http://testserver")]
    if signed_in:
        cookie = (await database_sync_to_async(session_cookie)(user)).encode()
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(
        application, f"/ws/tournaments/swiss/{event_id}/", headers=headers
    )
    connected, _ = await comm.connect(timeout=5)
    return comm, connected


async def frame_of(comm, kind):
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def frames_of(comm, kinds):
    """The first frame of each of ``kinds``, in whatever order they come."""
    found = {}
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] in kinds and frame["type"] not in found:
            found[frame["type"]] = frame
        if len(found) == len(kinds):
            return found
    raise AssertionError(f"not all of {kinds}: {sorted(found)}")


async def test_the_socket_marks_presence_pairs_and_updates(make_user, queued):
    lea, ana, ben, cy = [await database_sync_to_async(make_user)() for _ in range(4)]
    event = await database_sync_to_async(event_of)(lea, rounds=1)
    for user in (ana, ben, cy):
        await database_sync_to_async(swiss_join)(user=user, event_id=event.pk)
    socks = []
    for user in (ana, ben):
        sock, ok = await swiss_socket(user, event.pk)
        assert ok
        socks.append(sock)
        first = await frame_of(sock, "update")
        assert first["state"] == "scheduled" and first["rounds"] == 1
        assert {r[1] for r in first["rows"]} == {ana.pk, ben.pk, cy.pk}
    here = await database_sync_to_async(present_among)(
        event_id=event.pk, user_ids=[ana.pk, ben.pk, cy.pk]
    )
    assert here == {ana.pk, ben.pk}  # Cy has no page open: absent at the start
    await database_sync_to_async(swiss_advance)(event_id=event.pk, now=event.starts_at)
    (game,) = [
        g for g in await database_sync_to_async(games_of)(event, 1) if g.second_id
    ]
    assert {game.first_id, game.second_id} == {ana.pk, ben.pk}
    for sock in socks:
        # "paired" goes to the player's group, the update to the event's: over
        # Redis the two may arrive in either order.
        seen = await frames_of(sock, {"paired", "update"})
        assert seen["paired"]["url"] == f"/tables/{game.table_id}/"
        moved = seen["update"]
        assert moved["state"] == "running" and moved["games"][0]["number"] == 1
    await database_sync_to_async(end_game)(game, winner=ana)
    final = await frame_of(socks[0], "update")
    assert final["state"] == "finished"
    assert final["rows"][0][1] == ana.pk and final["rows"][0][3] == 1.0
    for sock in socks:
        await sock.disconnect()
    gone = await database_sync_to_async(present_among)(
        event_id=event.pk, user_ids=[ana.pk, ben.pk]
    )
    assert gone == set()


async def test_strangers_and_unknown_events_are_refused(make_user):
    ana = await database_sync_to_async(make_user)()
    comm, _ok = await swiss_socket(ana, 1, signed_in=False)
    assert (await comm.receive_output(timeout=5))["code"] == 4401
    await comm.wait()
    comm, _ok = await swiss_socket(ana, 999999)
    assert (await comm.receive_output(timeout=5))["code"] == 4404
    await comm.wait()
