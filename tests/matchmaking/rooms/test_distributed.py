"""Two daphne processes on PostgreSQL + Redis: alice invites through one server,
bob's presence socket on the other server shows the invitation."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.parse
import urllib.request

import pytest
import websockets

from matchmaking.models import RoomInvitation
from matchmaking.rooms.services import room_create
from tests.games.test_distributed import stack_env
from tests.support import session_cookie
from tests.support.servers import daphne_start

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def invite_over_http(base: str, cookie: str, room_id: int, username: str) -> int:
    """What the room page's Invite button does, against a real server."""
    page = urllib.request.Request(
        f"{base}/rooms/{room_id}/", headers={"Cookie": cookie}
    )
    with urllib.request.urlopen(page, timeout=10) as reply:
        set_cookie = reply.headers.get_all("Set-Cookie") or []
        html = reply.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    csrf = next(c.split(";")[0] for c in set_cookie if c.startswith("csrftoken="))
    body = urllib.parse.urlencode(
        {"username": username, "csrfmiddlewaretoken": token}
    ).encode()
    post = urllib.request.Request(
        f"{base}/rooms/{room_id}/invite/",
        data=body,
        headers={
            "Cookie": f"{cookie}; {csrf}",
            "Accept": "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    with urllib.request.urlopen(post, timeout=10) as reply:
        return reply.status


async def wait_invitation(port: int, cookie: str, ready: asyncio.Event) -> dict:
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/presence/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    ) as ws:
        await ws.send('{"type":"ping"}')
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 15))
            if frame["type"] == "pong":
                ready.set()
            if frame["type"] == "invitation":
                return frame["invitation"]


def test_an_invitation_reaches_a_player_on_another_server(make_user, tmp_path):
    alice, bob = make_user("alice"), make_user("bob")
    room = room_create(host=alice, variant="draw", options={"seats": 3})
    env = stack_env()
    web_a = daphne_start(env, log=tmp_path / "a.log")
    web_b = daphne_start(env, log=tmp_path / "b.log")
    cookie_alice, cookie_bob = session_cookie(alice), session_cookie(bob)

    async def scenario() -> dict:
        ready = asyncio.Event()
        listening = asyncio.create_task(wait_invitation(web_b.port, cookie_bob, ready))
        await asyncio.wait_for(ready.wait(), 15)
        status = await asyncio.to_thread(
            invite_over_http, web_a.url, cookie_alice, room.pk, "bob"
        )
        assert status == 200
        return await listening

    try:
        got = asyncio.run(scenario())
    finally:
        web_a.stop()
        web_b.stop()
    invitation = RoomInvitation.objects.get(room=room)
    assert got["id"] == invitation.pk
    assert got["host"] == "alice"
    assert invitation.invitee_id == bob.pk
