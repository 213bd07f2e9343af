"""A simulated player's generated name, always shown with the computer label."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import TableError
from games.models import Seat, Table
from games.names import seat_display_name
from games.selectors import table_frame
from games.services import seat_join, table_cancel, table_create, table_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def test_simulated_name_shows_with_the_computer_label(make_user, client):
    ana = make_user("ana")
    table = table_create(mode=Table.Mode.ONLINE, variant="block", bot_speed="instant")
    seat_join(table_id=table.pk, user=ana, position=0)
    seat_join(
        table_id=table.pk, bot_level="hard", simulated=True, position=1, name="Vera42"
    )
    table_start(table_id=table.pk)
    bot = Seat.objects.get(table=table, position=1)
    assert bot.name == "Vera42"
    assert seat_display_name(bot) == "Vera42 · computer"
    frame = table_frame(table_id=table.pk, position=0)  # what the table page shows
    names = {s["position"]: s["name"] for s in frame["seats"]}
    assert names == {0: "ana", 1: "Vera42 · computer"}
    table_cancel(table_id=table.pk)
    client.force_login(ana)
    history = client.get(reverse("table-history", args=[table.pk]))
    assert "Vera42 · computer" in history.content.decode()


def test_plain_computer_seats_keep_their_numbered_name(make_user):
    ana = make_user("ana")
    table = table_create(mode=Table.Mode.FRIEND, variant="block")
    seat_join(table_id=table.pk, user=ana, position=0)
    bot = seat_join(table_id=table.pk, bot_level="medium", position=1)
    assert bot.name == ""
    assert seat_display_name(bot) == "Computer 2 · medium"


def test_only_a_simulated_seat_takes_a_name(make_user):
    ana = make_user("ana")
    table = table_create(mode=Table.Mode.ONLINE, variant="block")
    with pytest.raises(TableError) as err:
        seat_join(table_id=table.pk, user=ana, name="Impostor")
    assert err.value.code == "bad_seat"
    assert not Seat.objects.filter(table=table).exists()
