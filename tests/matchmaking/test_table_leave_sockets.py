"""The table socket's ``leave`` at a waiting stake table or friend room goes through
the service that keeps that table's books: the stake refund, the room's host and
closing; later sit-downs work and every refusal is an error frame in words."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from economy.selectors import pot_balance, wallet_balance
from games.models import Seat, Table
from matchmaking.errors import RoomError
from matchmaking.models import Room, StakeSitter, StakeTable
from matchmaking.rooms import services as rooms
from matchmaking.stakes import services as stakes
from tests.games.test_table_socket import Player
from tests.matchmaking.stakes.helpers import fund
from tests.matchmaking.stakes.leave_helpers import assert_books_agree

pytestmark = pytest.mark.django_db(transaction=True)

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def no_expiry(monkeypatch):
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


async def leave(player: Player) -> dict:
    """Send ``leave``, then ``sync``: frames are handled in order, so the state
    (or an error) that comes back follows the leave's service call."""
    await player.send({"type": "leave"})
    await player.send({"type": "sync"})
    return await player.receive()


def funded(make_user, coins: int):
    user = make_user()
    fund(user.pk, coins)
    return user


async def test_leave_at_a_waiting_stake_table_stands_up_and_refunds(make_user):
    ana = await database_sync_to_async(funded)(make_user, 100)
    ben = await database_sync_to_async(funded)(make_user, 100)
    row = await database_sync_to_async(stakes.stake_sit)(
        user=ana, stake=100, shape="draw-4p"
    )
    player = await Player.join(row.pk, ana)

    frame = await leave(player)

    assert frame["type"] == "state", frame
    await player.comm.disconnect()

    def check():
        assert wallet_balance(user_id=ana.pk) == 100
        assert not StakeSitter.objects.filter(user=ana).exists()
        assert not Seat.objects.filter(user=ana).exists()
        assert StakeTable.objects.get(pk=row.pk).seats_taken == 0
        assert pot_balance(table_ref=str(row.pk)) == 0
        assert_books_agree(row.pk)
        # Later sit-downs of this stake and shape work, the leaver's own included
        # (and they pay again); the leaver's Stand up is refused in words.
        again = stakes.stake_sit(user=ben, stake=100, shape="draw-4p")
        assert again.pk == row.pk
        client = Client()
        client.force_login(ana)
        reply = client.post(reverse("stakes-stand"), {"table": str(row.pk)}, **JSON)
        assert reply.status_code == 400
        assert reply.json()["error"]["code"] == "not_seated"
        reply = client.post(
            reverse("stakes-sit"), {"stake": "100", "shape": "draw-4p"}, **JSON
        )
        assert reply.status_code == 200, reply.content
        assert wallet_balance(user_id=ana.pk) == 0
        assert pot_balance(table_ref=str(row.pk)) == 200
        assert_books_agree(row.pk)

    await database_sync_to_async(check)()


async def test_a_two_seat_stake_table_left_by_socket_fills_and_starts(make_user):
    users = [await database_sync_to_async(funded)(make_user, 100) for _ in range(3)]
    row = await database_sync_to_async(stakes.stake_sit)(
        user=users[0], stake=100, shape="block-2"
    )
    player = await Player.join(row.pk, users[0])
    await leave(player)
    await player.comm.disconnect()

    def fill():
        stakes.stake_sit(user=users[1], stake=100, shape="block-2", table_id=row.pk)
        stakes.stake_sit(user=users[2], stake=100, shape="block-2", table_id=row.pk)
        assert Table.objects.get(pk=row.pk).status == Table.Status.PLAYING
        assert_books_agree(row.pk)
        assert pot_balance(table_ref=str(row.pk)) == 200

    await database_sync_to_async(fill)()


async def test_leave_refusals_at_a_stake_table_are_error_frames_in_words(make_user):
    ana = await database_sync_to_async(funded)(make_user, 100)
    ben = await database_sync_to_async(funded)(make_user, 100)
    row = await database_sync_to_async(stakes.stake_sit)(
        user=ana, stake=100, shape="draw-4p"
    )
    # Someone watching has no seat to give up.
    watcher = await Player.join(row.pk, ben)
    await watcher.send({"type": "leave"})
    error = await watcher.error()
    assert error["code"] == "not_seated"
    assert error["message"] == "You have no seat at this table."
    # Leaving twice: the second is refused, nothing is refunded twice.
    player = await Player.join(row.pk, ana)
    await leave(player)
    await player.send({"type": "leave"})
    error = await player.error()
    assert error["code"] == "not_seated"
    for socket in (watcher, player):
        await socket.comm.disconnect()

    def check():
        assert wallet_balance(user_id=ana.pk) == 100
        assert_books_agree(row.pk)

    await database_sync_to_async(check)()


async def test_leave_at_a_started_stake_table_forfeits_as_before(make_user):
    ana = await database_sync_to_async(funded)(make_user, 100)
    ben = await database_sync_to_async(funded)(make_user, 100)

    def seat_both():
        row = stakes.stake_sit(user=ana, stake=100, shape="block-2")
        stakes.stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
        return row

    row = await database_sync_to_async(seat_both)()
    player = await Player.join(row.pk, ana)
    await player.send({"type": "leave"})
    await player.send({"type": "sync"})
    frame = await player.receive()
    while frame["type"] != "state":
        frame = await player.receive()
    assert not player.errors, player.errors
    await player.comm.disconnect()

    def check():
        assert Seat.objects.get(user=ana, table_id=row.pk).forfeited
        assert StakeSitter.objects.filter(stake_table_id=row.pk).count() == 2
        assert wallet_balance(user_id=ana.pk) == 0
        assert_books_agree(row.pk)

    await database_sync_to_async(check)()


def _room_of_two(make_user):
    ana, ben = make_user(), make_user()
    room = rooms.room_create(host=ana, variant="block", options={"seats": 3})
    rooms.room_join(room_id=room.pk, user=ben)
    return room, ana, ben


async def test_leave_at_a_waiting_friend_table_leaves_the_room(make_user):
    room, ana, ben = await database_sync_to_async(_room_of_two)(make_user)
    guest = await Player.join(room.table_id, ben)

    frame = await leave(guest)

    assert frame["type"] == "state", frame
    await guest.comm.disconnect()

    def check():
        assert not Seat.objects.filter(table_id=room.table_id, user=ben).exists()
        assert room.events.filter(kind="left", username=ben.username).exists()
        # The room takes ben back by its link, and starts with its host.
        rooms.room_join(room_id=room.pk, user=ben)
        rooms.room_start(room_id=room.pk, user=ana)
        seated = Seat.objects.filter(table_id=room.table_id)
        assert {s.user_id for s in seated if s.user_id} == {ana.pk, ben.pk}

    await database_sync_to_async(check)()


async def test_the_host_leaving_by_socket_hands_the_room_over(make_user):
    room, ana, ben = await database_sync_to_async(_room_of_two)(make_user)
    host = await Player.join(room.table_id, ana)
    await leave(host)
    await host.comm.disconnect()

    def check():
        fresh = Room.objects.get(pk=room.pk)
        assert fresh.host_id == ben.pk and fresh.status == Room.Status.OPEN
        with pytest.raises(RoomError) as refused:
            rooms.room_start(room_id=room.pk, user=ana)
        assert refused.value.code == "not_host"

    await database_sync_to_async(check)()


async def test_the_last_one_out_by_socket_closes_the_room(make_user):
    ana = await database_sync_to_async(make_user)()
    room = await database_sync_to_async(rooms.room_create)(
        host=ana, variant="block", options={"seats": 2}
    )
    host = await Player.join(room.table_id, ana)
    await leave(host)
    await host.comm.disconnect()

    def check():
        fresh = Room.objects.get(pk=room.pk)
        assert fresh.status == Room.Status.CLOSED
        assert Table.objects.get(pk=room.table_id).status == Table.Status.CANCELLED
        # No table of computers only: the room cannot start any more.
        with pytest.raises(RoomError) as refused:
            rooms.room_start(room_id=room.pk, user=ana)
        assert refused.value.code == "closed"
        assert not Seat.objects.filter(table_id=room.table_id).exists()

    await database_sync_to_async(check)()
