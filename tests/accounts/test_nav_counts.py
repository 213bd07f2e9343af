"""The navigation's badges: friend requests waiting and open room invitations,
counted in one statement on every page (``accounts.nav_counts``)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.nav_counts import nav_counts
from friends.services import friend_request_send
from matchmaking.rooms.models import RoomInvitation
from matchmaking.rooms.services import invitation_send, room_create
from realtime import outbox

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    monkeypatch.setattr(outbox, "notify", lambda msgs: None)


def test_both_counts_in_one_statement(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    friend_request_send(sender=ben, username="ana")
    friend_request_send(sender=cy, username="ana")
    for host in (ben, cy):
        room = room_create(host=host, variant="draw", options={"seats": 3})
        invitation_send(room_id=room.pk, inviter=host, username="ana")
    # An expired invitation is not counted.
    RoomInvitation.objects.filter(room__host=cy).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    with CaptureQueriesContext(connection) as sql:
        counts = nav_counts(ana)
    assert counts == {"friend_request_count": 2, "invitation_count": 1}
    assert len(sql) == 1
    assert nav_counts(ben) == {"friend_request_count": 0, "invitation_count": 0}


def test_a_page_shows_the_badges(client, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    friend_request_send(sender=ben, username="ana")
    room = room_create(host=ben, variant="draw", options={"seats": 3})
    invitation_send(room_id=room.pk, inviter=ben, username="ana")
    client.force_login(ana)
    page = client.get("/").content.decode()
    assert 'id="friend-request-count">1<' in page
    assert 'id="invitation-count">1<' in page
