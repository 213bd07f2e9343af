"""Staff's Cancel in the admin goes through the room's books: a friend room whose
table is cancelled closes, whether its game was waiting or playing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Table
from matchmaking.models import Room
from matchmaking.rooms.services import room_create, room_join, room_start
from tests.matchmaking.rooms.helpers import notified_fixture  # noqa: F401

pytestmark = pytest.mark.django_db


def admin_cancel(admin_client, table_id: int) -> None:
    reply = admin_client.post(
        reverse("admin:games_table_changelist"),
        {"action": "cancel_tables", "_selected_action": [str(table_id)]},
        follow=True,
    )
    assert reply.status_code == 200


@pytest.mark.parametrize("started", [False, True])
def test_a_cancelled_room_table_closes_its_room(
    admin_client,
    make_user,
    notified,
    queued,
    pushes,
    started,
    django_capture_on_commit_callbacks,
):
    host, guest = make_user("host"), make_user("guest")
    room = room_create(host=host, variant="draw", options={"seats": 2})
    room_join(room_id=room.pk, user=guest)
    if started:
        room_start(room_id=room.pk, user=host)
    with django_capture_on_commit_callbacks(execute=True):
        admin_cancel(admin_client, room.table_id)
    room.refresh_from_db()
    assert Table.objects.get(pk=room.table_id).status == Table.Status.CANCELLED
    assert room.status == Room.Status.CLOSED
