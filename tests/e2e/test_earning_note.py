"""The match result tells a player who let the computer play their seat why they
earned nothing (RULES.md §5, "Earning needs playing").

The table is played to its end in the server's own database by a ``manage.py
shell`` process, through the table services: the rival plays, the player's seat is
played by the turn clock and the stand-in all match. A friend table of two people:
it pays, but feeds no league, so the league pages' tests sharing this server see
nothing of it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup
from tests.e2e.test_league_page import _shell, server_db

pytestmark = pytest.mark.e2e

AWAY_ALL_MATCH = """
import random
from django.contrib.auth import get_user_model
from games.services import seat_join, table_create, table_start
from tests.support.tables import drive
User = get_user_model()
me = User.objects.get(username={name!r})
rival = User.objects.create_user(username={name!r} + "r", password="x-Long-pass-42")
table = table_create(
    mode="friend", variant="draw", options={{"target": 50}}, clock_seconds=30,
    hand_pause_seconds=0,
)
seat_join(table_id=table.pk, user=me)
seat_join(table_id=table.pk, user=rival)
table_start(table_id=table.pk)
drive(table.pk, {{1: rival}}, rng=random.Random(1))
print(table.pk)
"""


def test_a_player_away_all_match_reads_why_they_earned_nothing(
    new_page, live_url, tmp_path_factory
):
    page = new_page()
    name = signup(page, "away")
    out = _shell(server_db(tmp_path_factory), AWAY_ALL_MATCH.format(name=name))
    table_id = int(out.strip().splitlines()[-1])
    page.goto(f"/tables/{table_id}/")
    page.locator("#main-action").click()  # "Finish": the match's result
    note = page.locator("#match-result [data-unpaid]")
    expect(note).to_contain_text("the computer played most of your moves")
    screenshot(page, "earning-note-en")
