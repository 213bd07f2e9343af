"""The table page offers the quick chat only where another person sits: chat
lines go to the people seated, so against computers nobody would read them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import seat_join, table_create, table_practice_create, table_start
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db

CHAT = 'id="chat"'


def test_a_practice_table_has_no_chat(client, make_user, queued, pushes):
    ana = make_user("ana")
    table = table_practice_create(user=ana, variant="draw", bot_levels=["easy"])
    client.force_login(ana)
    assert CHAT not in client.get(reverse("table", args=[table.pk])).content.decode()


def test_a_ranked_table_filled_by_computers_has_no_chat(
    client, make_user, queued, pushes
):
    ana = make_user("ana")
    table = table_create(mode="online", variant="draw", options={"target": 50})
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, bot_level="medium", simulated=True, name="Vera42")
    table_start(table_id=table.pk)
    client.force_login(ana)
    assert CHAT not in client.get(reverse("table", args=[table.pk])).content.decode()


def test_a_table_of_two_people_has_the_chat_for_its_players_only(
    client, make_user, queued, pushes
):
    table, ana, _ben = two_human_table(make_user, mode="online", target=50)
    client.force_login(ana)
    assert CHAT in client.get(reverse("table", args=[table.pk])).content.decode()
