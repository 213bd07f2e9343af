"""What a player reads around a table that has no one else to read it, and at
the end of a ranked table that computer players filled: no chat box (and never a
stray "null" where it was), and the result screen's "Unrated" line.

The backfilled table is made and played in the server's own database by a
``manage.py shell`` process (``tests.support.tables.drive``), as the arena test
does; the browser then opens it and reads its end.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup, start_practice, wait_ready
from tests.e2e.test_league_page import _shell, server_db

pytestmark = pytest.mark.e2e

BACKFILLED = """
import random
from django.contrib.auth import get_user_model
from games import finish
from games.models import Table
from games.services import seat_join, table_create, table_start
from tests.support.tables import drive
finish._registry.pop("league", None)
user = get_user_model().objects.get(username={name!r})
table = table_create(mode="online", variant="draw", options={{"target": 50}})
seat_join(table_id=table.pk, user=user)
seat_join(table_id=table.pk, bot_level="medium", simulated=True, name="Vera42")
table_start(table_id=table.pk)
drive(table.pk, {{0: user}}, rng=random.Random(4))
print(table.pk, Table.objects.get(pk=table.pk).status)
"""


def test_a_practice_table_offers_no_chat_to_a_player_alone_with_computers(new_page):
    page = new_page()
    signup(page, "solo")
    start_practice(page, "draw", levels=("easy",))
    expect(page.locator("#chat")).to_have_count(0)
    expect(page.locator("#table-app")).not_to_contain_text("null")


def test_a_ranked_table_filled_by_computers_says_it_was_unrated(
    new_page, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    page = new_page()
    name = signup(page, "rk")
    table_id, status = _shell(db, BACKFILLED.format(name=name)).split()[-2:]
    assert status == "finished"
    page.goto(f"/tables/{table_id}/")
    wait_ready(page)
    expect(page.locator("#chat")).to_have_count(0)  # nobody to read it
    expect(page.locator("#main-action")).to_have_text("Finish")
    page.locator("#main-action").click()
    unrated = page.locator("#match-result [data-unrated]")
    expect(unrated).to_have_text(
        "Unrated: computer players filled seats at this table, and only games "
        "between people change a rating."
    )
    expect(page.locator("#match-result [data-rating]")).to_have_count(0)
    screenshot(page, "result-unrated")
