"""A removed player races back in through the link and the code, on PostgreSQL:
the room's own services serialise on its row, so they stay out."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Seat
from matchmaking.errors import RoomError
from matchmaking.models import RoomRemoval
from matchmaking.rooms.services import room_create, room_join, room_remove
from tests.matchmaking.rooms.helpers import notified_fixture, seated  # noqa: F401

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_rejoin_racing_the_removal_never_keeps_a_seat(make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    for round_ in range(4):
        room = room_create(host=ana, variant="draw", options={"seats": 4})
        room_join(room_id=room.pk, user=ben)
        join = reverse("room-join", args=[room.token])
        barrier = threading.Barrier(4)
        outcome: dict[str, str] = {}

        def remove(barrier=barrier, outcome=outcome, room=room):
            try:
                barrier.wait(timeout=10)
                room_remove(room_id=room.pk, user=ana, player_id=ben.pk)
                outcome["remove"] = "done"
            except RoomError as err:
                outcome["remove"] = err.code
            finally:
                connection.close()

        def retry(name, barrier=barrier, outcome=outcome, room=room, join=join):
            client = Client()
            client.force_login(ben)
            try:
                barrier.wait(timeout=10)
                for _ in range(3):
                    if name == "code":
                        client.post(reverse("room-code"), {"code": room.code})
                    client.post(join)
                outcome[name] = "tried"
            finally:
                connection.close()

        threads = [threading.Thread(target=remove)] + [
            threading.Thread(target=retry, args=(name,))
            for name in ("link", "link2", "code")
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert outcome["remove"] == "done", (round_, outcome)
        assert seated(room) == {0: "ana"}, round_
        assert RoomRemoval.objects.filter(room=room, user=ben).exists()
        # The room's seats and its table's agree: one person, one seat.
        assert Seat.objects.filter(table_id=room.table_id).count() == 1
        # And afterwards, directly: still refused.
        with pytest.raises(RoomError) as refused:
            room_join(room_id=room.pk, user=ben)
        assert refused.value.code == "removed"
