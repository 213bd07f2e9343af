"""Rematch: the same room and people, each must agree, seats one place round."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.models import Table
from matchmaking.errors import RoomError
from matchmaking.rooms.services import room_create, room_join, room_rematch, room_start
from tests.matchmaking.rooms.helpers import notified_fixture, seated  # noqa: F401
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


def test_everyone_agrees_and_the_seats_rotate(
    client, make_user, notified, queued, pushes, django_capture_on_commit_callbacks
):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    room = room_create(
        host=ana, variant="draw", options={"seats": 3, "target": 50}, bot_level="easy"
    )
    room_join(room_id=room.pk, user=ben)
    table = room_start(room_id=room.pk, user=ana)
    assert seated(room) == {0: "ana", 1: "ben", 2: "bot:easy"}
    with pytest.raises(RoomError) as info:
        room_rematch(room_id=room.pk, user=ana)
    assert info.value.code == "not_finished"
    with django_capture_on_commit_callbacks(execute=True):
        drive(table.pk, {0: ana, 1: ben}, rng=random.Random(5))
    with pytest.raises(RoomError) as info:
        room_rematch(room_id=room.pk, user=cy)
    assert info.value.code == "not_seated"
    client.force_login(ben)
    page = client.get(reverse("room", args=[room.pk])).content.decode()
    assert 'id="rematch"' in page
    assert room_rematch(room_id=room.pk, user=ana) is None
    assert room_rematch(room_id=room.pk, user=ana) is None  # agreeing twice: one vote
    page = client.get(reverse("room", args=[room.pk])).content.decode()
    assert "wants a rematch" in page
    room.refresh_from_db()
    assert room.table_id == table.pk
    new = client.post(reverse("room-rematch", args=[room.pk]))
    room.refresh_from_db()
    assert room.table_id != table.pk
    assert new.url == reverse("table", args=[room.table_id])
    assert room.table.status == Table.Status.PLAYING
    assert room.table.mode == Table.Mode.FRIEND
    assert room.table.options == table.options
    assert seated(room) == {1: "ana", 2: "ben", 0: "bot:easy"}
    # The finished table's votes do not carry over to the new one.
    with pytest.raises(RoomError) as info:
        room_rematch(room_id=room.pk, user=ana)
    assert info.value.code == "not_finished"
