"""An invitation reaches the invitee's open pages over the presence socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from matchmaking.rooms.services import invitation_send, room_create
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def presence(user) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        "/ws/presence/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    # The count comes once the socket has joined its player's group: an
    # invitation sent earlier would find nobody.
    assert (await comm.receive_json_from(timeout=5))["type"] == "online"
    return comm


async def next_invitation(comm: WebsocketCommunicator) -> dict:
    for _ in range(10):
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == "invitation":
            return frame["invitation"]
    raise AssertionError("no invitation arrived")


async def test_every_tab_of_the_invitee_and_nobody_else_hears_it(make_user):
    ana, ben, cy = [
        await database_sync_to_async(make_user)(name) for name in ("ana", "ben", "cy")
    ]
    tabs = [await presence(ben), await presence(ben)]
    other = await presence(cy)

    def invite():
        room = room_create(host=ana, variant="draw", options={"seats": 3})
        return invitation_send(room_id=room.pk, inviter=ana, username="ben")

    invitation = await database_sync_to_async(invite)()
    for tab in tabs:
        got = await next_invitation(tab)
        assert got["id"] == invitation.pk and got["host"] == "ana"
        assert got["accept"] == f"/invitations/{invitation.pk}/accept/"
    while not await other.receive_nothing(timeout=0.3):
        assert (await other.receive_json_from())["type"] != "invitation"
    for comm in (*tabs, other):
        await comm.disconnect()
