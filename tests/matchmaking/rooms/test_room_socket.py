"""The room page's socket and the stake lobby's: a change made by another player
arrives without polling, and the room's privacy holds as for its state URL."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from matchmaking.rooms.services import (
    invitation_send,
    invitation_withdraw,
    room_create,
    room_join,
    room_leave,
    room_remove,
)
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def socket(path: str, user=None) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        cookie = (await database_sync_to_async(session_cookie)(user)).encode()
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=10)
    return comm, connected


async def until(comm: WebsocketCommunicator, kind: str) -> dict:
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def closed_with(comm: WebsocketCommunicator) -> int:
    while True:
        out = await comm.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            return int(out["code"])


@database_sync_to_async
def users(*names):
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return [model.objects.create_user(n, f"{n}@example.com", "pw") for n in names]


@database_sync_to_async
def call(func, **kwargs):
    return func(**kwargs)


async def test_a_join_and_a_leave_reach_the_host_without_polling():
    ana, ben = await users("ana", "ben")
    room = await call(room_create, host=ana, variant="draw", options={"seats": 3})
    host, ok = await socket(f"/ws/rooms/{room.pk}/", ana)
    assert ok
    first = await until(host, "state")
    assert first["table"] is None
    await call(room_join, room_id=room.pk, user=ben)
    joined = await until(host, "state")
    assert joined["version"] != first["version"]
    await call(room_leave, room_id=room.pk, user=ben)
    left = await until(host, "state")
    assert left["version"] != joined["version"]
    await host.disconnect()


async def test_strangers_and_signed_out_sockets_are_refused():
    ana, eve = await users("ana", "eve")
    room = await call(room_create, host=ana, variant="draw", options={"seats": 3})
    stranger, _ = await socket(f"/ws/rooms/{room.pk}/", eve)
    assert await closed_with(stranger) == 4404
    anonymous, _ = await socket(f"/ws/rooms/{room.pk}/")
    assert await closed_with(anonymous) == 4401
    nowhere, _ = await socket("/ws/rooms/999999/", ana)
    assert await closed_with(nowhere) == 4404  # the same as a room one may not see
    # An invitee may listen, as they may read the state URL; withdrawn, no more.
    invitation = await call(
        invitation_send, room_id=room.pk, inviter=ana, username="eve"
    )
    invited, _ = await socket(f"/ws/rooms/{room.pk}/", eve)
    await until(invited, "state")
    await call(invitation_withdraw, invitation_id=invitation.pk, user=ana)
    assert await closed_with(invited) == 4404


async def test_a_removed_player_is_told_and_hears_nothing_more():
    ana, ben, cy = await users("ana", "ben", "cy")
    room = await call(room_create, host=ana, variant="draw", options={"seats": 3})
    await call(room_join, room_id=room.pk, user=ben)
    page, _ = await socket(f"/ws/rooms/{room.pk}/", ben)
    await until(page, "state")
    await call(room_remove, room_id=room.pk, user=ana, player_id=ben.pk)
    told = await until(page, "removed")
    assert "removed you" in told["message"]
    assert await closed_with(page) == 4403
    # Coming back by socket is refused like the state URL.
    again, _ = await socket(f"/ws/rooms/{room.pk}/", ben)
    assert await closed_with(again) == 4404
    host, _ = await socket(f"/ws/rooms/{room.pk}/", ana)
    await until(host, "state")
    await call(room_join, room_id=room.pk, user=cy)
    await until(host, "state")
    await host.disconnect()


async def test_the_stake_lobby_hears_another_players_sit_and_stand(monkeypatch):
    from tests.matchmaking.stakes.helpers import fund

    ana, ben = await users("ana", "ben")
    await database_sync_to_async(fund)(ben.pk, 1000)
    lobby, ok = await socket("/ws/stakes/", ana)
    assert ok
    anonymous, _ = await socket("/ws/stakes/")
    assert await closed_with(anonymous) == 4401

    from matchmaking.stakes import services as stakes

    monkeypatch.setattr(stakes, "expiry_queue", lambda table_id, deadline: None)
    amount = (await database_sync_to_async(stakes.stake_amounts)())[0]
    shape = next(iter(await database_sync_to_async(stakes.stake_shapes)()))
    row = await call(stakes.stake_sit, user=ben, stake=amount, shape=shape)
    assert (await until(lobby, "changed")) == {"type": "changed"}
    await call(stakes.stake_stand, user=ben, table_id=row.pk)
    await until(lobby, "changed")
    await lobby.disconnect()
