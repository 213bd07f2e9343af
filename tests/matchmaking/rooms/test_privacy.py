"""A friend room's tables are seen by its members and invitees only, unless the
host allows spectators.

Anyone else gets the same plain 404 as for a table that does not exist, on the
table page, its history and log, and the table socket (4404, via
``table_membership``); ``/rooms/of-table/<id>/`` answers members only.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.errors import TableError
from games.models import Table
from games.selectors import table_membership
from matchmaking.models import Room
from matchmaking.rooms.services import (
    invitation_send,
    room_create,
    room_spectators_set,
    room_start,
)
from tests.matchmaking.rooms.helpers import notified_fixture  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def room_started(make_user, notified, pushes):
    ana, ben = make_user("ana"), make_user("ben")
    room = room_create(host=ana, variant="draw", bot_level="easy")
    invitation_send(room_id=room.pk, inviter=ana, username="ben")
    table = room_start(room_id=room.pk, user=ana)
    return Room.objects.get(pk=room.pk), table, ana, ben


def _without_tokens(content: bytes) -> bytes:
    """A page without its per-request CSRF token."""
    return re.sub(rb'value="[A-Za-z0-9]{32,}"', b"", content)


def _ended_pages(table: Table) -> list[str]:
    return [
        reverse("table-history", args=[table.pk]),
        reverse("table-log", args=[table.pk]),
    ]


def test_a_stranger_gets_the_same_404_as_for_no_table(client, make_user, room_started):
    room, table, _ana, _ben = room_started
    client.force_login(make_user("eve"))
    hidden_url = reverse("table", args=[table.pk])
    missing_url = reverse("table", args=[table.pk + 1000])
    hidden, missing = client.get(hidden_url), client.get(missing_url)
    assert hidden.status_code == missing.status_code == 404
    # The same page but for the address it was asked for (the language form's).
    assert _without_tokens(hidden.content) == _without_tokens(
        missing.content.replace(missing_url.encode(), hidden_url.encode())
    )
    assert client.get(reverse("room-of-table", args=[table.pk])).status_code == 404
    with pytest.raises(TableError):  # the socket closes with 4404
        table_membership(table_id=table.pk, user=client_user(client))

    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    for url in _ended_pages(table):
        assert client.get(url).status_code == 404, url


def client_user(client):
    from django.contrib.auth import get_user

    class Request:
        session = client.session

    return get_user(Request())


def test_an_invitee_sees_the_waiting_table(client, make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = room_create(host=ana, variant="draw", bot_level="easy")
    invitation_send(room_id=room.pk, inviter=ana, username="ben")
    client.force_login(ben)
    assert client.get(reverse("table", args=[room.table_id])).status_code == 200
    assert table_membership(table_id=room.table_id, user=ben) is None


def test_players_see_the_table(client, make_user, room_started):
    room, table, ana, _ben = room_started
    client.force_login(ana)
    assert client.get(reverse("table", args=[table.pk])).status_code == 200
    assert table_membership(table_id=table.pk, user=ana) is not None
    client.force_login(ana)
    reply = client.get(reverse("room-of-table", args=[table.pk]))
    assert reply.status_code == 302 and reply.url == reverse("room", args=[room.pk])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    for url in _ended_pages(table):
        assert client.get(url).status_code == 200, url


def test_the_host_may_allow_spectators(client, make_user, room_started):
    room, table, ana, _ben = room_started
    eve = make_user("eve")
    client.force_login(eve)
    assert client.get(reverse("table", args=[table.pk])).status_code == 404

    client.force_login(ana)
    page = client.get(reverse("room", args=[room.pk])).content.decode()
    assert 'id="spectators-toggle"' in page
    client.post(reverse("room-spectators", args=[room.pk]), {"allow": "1"})
    assert Room.objects.get(pk=room.pk).allow_spectators

    client.force_login(eve)
    assert client.get(reverse("table", args=[table.pk])).status_code == 200
    assert table_membership(table_id=table.pk, user=eve) is None  # a spectator
    # Watching is not membership: the room itself stays closed to her.
    assert client.get(reverse("room-of-table", args=[table.pk])).status_code == 404


def test_only_the_host_changes_the_option(make_user, room_started):
    room, _table, _ana, ben = room_started
    from matchmaking.errors import RoomError

    with pytest.raises(RoomError):
        room_spectators_set(room_id=room.pk, user=ben, allow=True)
    assert not Room.objects.get(pk=room.pk).allow_spectators


def test_the_create_form_offers_the_option_off_by_default(client, make_user):
    client.force_login(make_user("ana"))
    form = client.get(reverse("room-new")).content.decode()
    assert 'name="allow_spectators"' in form
    assert "checked" not in form.split('name="allow_spectators"')[1].split(">")[0]
    data = {
        "variant": "draw",
        "set_max": "6",
        "seats": "2",
        "target": "100",
        "clock": "30",
        "bot_level": "easy",
        "host_seat": "1",
        "allow_spectators": "on",
    }
    client.post(reverse("room-new"), data)
    assert Room.objects.get().allow_spectators


def test_other_tables_stay_open_to_watchers(client, make_user):
    from tests.support.tables import two_human_table

    table, _ana, _ben = two_human_table(make_user, mode="online")
    client.force_login(make_user("eve"))
    assert client.get(reverse("table", args=[table.pk])).status_code == 200
