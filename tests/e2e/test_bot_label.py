"""A bot account at the table in Chromium: its seat plate reads "<name> · BOT"
with the computer badge, and its profile says it is a bot.

The bot and the table are made in the server's own database by a ``manage.py
shell`` process (as in the TV and league tests); the person signs up in the
browser and is seated there too.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup, wait_ready
from tests.e2e.test_league_page import _shell, server_db

pytestmark = pytest.mark.e2e

TABLE = """
from django.contrib.auth import get_user_model
from accounts.models import BotAccount
from games.models import Table
from games.services import table_tick
from games.services.creating import SeatTaker, table_seated_create
User = get_user_model()
person = User.objects.get(username={person!r})
robo = User.objects.create_user(username={bot!r}, password="a-Long-pass-42")
BotAccount.objects.create(user=robo)
table = table_seated_create(
    mode="friend", variant="draw", options={{"target": 50}},
    seats=[SeatTaker(user=person), SeatTaker(user=robo)],
    clock_seconds=None, hand_pause_seconds=0,
)
table = Table.objects.get(pk=table.pk)
if table.state is None:  # the fair deal's seeds: deal without waiting for them
    Table.objects.filter(pk=table.pk).update(deadline=None)
    table_tick(table_id=table.pk, seq=table.seq)
print(table.pk)
"""


def test_the_table_page_and_profile_label_a_bot(new_page, live_url, tmp_path_factory):
    db = server_db(tmp_path_factory)
    page = new_page()
    me = signup(page, "ana")
    bot = f"robo{me[-6:]}"
    table_id = int(
        _shell(db, TABLE.format(person=me, bot=bot)).strip().splitlines()[-1]
    )
    page.goto(f"/tables/{table_id}/")
    wait_ready(page)
    plate = page.locator("#seats li", has_text=bot)
    expect(plate).to_contain_text(f"{bot} · BOT")
    expect(plate.locator(".badge.bot")).to_be_visible()
    expect(page.locator("#seats li", has_text=me).locator(".badge.bot")).to_have_count(
        0
    )
    screenshot(page, "bot-seat")
    page.goto(f"/players/{bot}/")
    expect(page.locator("#bot-profile")).to_contain_text("This player is a bot account")
    expect(page.locator("#bot-challenge button")).to_have_text("Challenge")
