"""TV in Chromium: a visitor who is not signed in watches the best live game; when
it ends, the page shows the next best live game by itself, without a reload.

The tables are made and played in the server's own database by a ``manage.py
shell`` process (as in the league and lobby tests). Their people are rated far
above anyone the other tests seat, so TV picks them whatever else is live. They
have no turn clock: nothing but this test moves them.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup
from tests.e2e.test_league_page import _shell, server_db

pytestmark = pytest.mark.e2e

TABLES = """
import json
import re
from django.contrib.auth import get_user_model
from games.models import Table
from games.services import table_tick
from games.services.creating import SeatTaker, table_seated_create
from matchmaking.pools.models import Rating
from matchmaking.pools.ratings import MU, SIGMA
User = get_user_model()
ids = []
for names, points in {tables!r}:
    takers = []
    for name in names:
        user = User.objects.create_user(username=name, password="a-Long-pass-42")
        Rating.objects.create(
            user=user, variant="draw", mu=MU + (points - 1500) / 40, sigma=SIGMA,
            tables=40,
        )
        takers.append(SeatTaker(user=user))
    table = table_seated_create(
        mode="online", variant="draw", options={{"target": 50}}, seats=takers,
        clock_seconds=None, hand_pause_seconds=0,
    )
    table = Table.objects.get(pk=table.pk)
    if table.state is None:  # the fair deal's seeds: deal without waiting for them
        Table.objects.filter(pk=table.pk).update(deadline=None)
        table_tick(table_id=table.pk, seq=table.seq)
    ids.append(table.pk)
print(json.dumps(ids))
"""

FINISH = """
import random
from games import finish
from games.models import Seat
finish._registry.pop("league", None)
from tests.support.tables import drive
seats = Seat.objects.filter(table_id={table}).select_related("user")
users = {{s.position: s.user for s in seats}}
print(drive({table}, users, rng=random.Random(7)).status)
"""


def test_tv_shows_the_best_live_game_then_the_next_without_a_reload(
    new_page, live_url, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    out = _shell(
        db,
        TABLES.format(
            tables=[(["tv_ana", "tv_ben"], 3000), (["tv_cy", "tv_di"], 2900)]
        ),
    )
    best, next_best = json.loads(out.strip().splitlines()[-1])

    viewer = new_page()  # not signed in
    viewer.goto("/tv/")
    viewer.wait_for_function(f"() => window.dominoTV.table === {best}", timeout=20_000)
    expect(viewer.locator("#table-app")).to_be_visible()
    expect(viewer.locator("#seats li")).to_have_count(2)
    expect(viewer.locator("#seats")).to_contain_text("tv_ana")
    expect(viewer.locator("#tv-status")).to_contain_text(str(best))
    shown = viewer.evaluate("() => window.dominoTV.ui.frame")
    assert shown["you"] is None and shown["view"].get("hand") is None
    assert shown["table"]["timer"] is None
    screenshot(viewer, "tv-live")
    viewer.evaluate("() => { window.stillThisPage = true; }")

    assert "finished" in _shell(db, FINISH.format(table=best))
    # The end is shown first, then the next best game comes on by itself.
    expect(viewer.locator("#tv-status")).to_contain_text("ended", timeout=20_000)
    viewer.wait_for_function(
        f"() => window.dominoTV.table === {next_best}", timeout=30_000
    )
    expect(viewer.locator("#seats")).to_contain_text("tv_cy")
    assert viewer.evaluate("() => window.stillThisPage === true")  # no reload
    assert viewer.evaluate("() => window.dominoTV.ui.frame.you") is None
    screenshot(viewer, "tv-next")

    # Once that one ends too and nothing of the sort is live, the channel says so.
    viewer.goto("/tv/spider/")
    expect(viewer.locator("#tv-status")).to_contain_text("No game is live")
    expect(viewer.locator("#table-app")).to_be_hidden()


BANKED = """
from django.contrib.auth import get_user_model
from games.models import Table
from games.services import table_tick
from games.services.creating import SeatTaker, table_seated_create
User = get_user_model()
ana = User.objects.get(username={name!r})
ben = User.objects.create_user(username={name!r} + "_b", password="a-Long-pass-42")
table = table_seated_create(
    mode="online", variant="draw", seats=[SeatTaker(user=ana), SeatTaker(user=ben)],
    clock_seconds=30, bank_seconds=60, hand_pause_seconds=0,
)
table = Table.objects.get(pk=table.pk)
if table.state is None:
    Table.objects.filter(pk=table.pk).update(deadline=None)
    table_tick(table_id=table.pk, seq=table.seq)
print(table.pk)
"""

# The mover's clock ran out 15 s ago: 45 s of the 60 s bank left.
INTO_THE_BANK = """
from datetime import timedelta
from django.utils import timezone
from games.models import Table
Table.objects.filter(pk={table}).update(deadline=timezone.now() + timedelta(seconds=45))
"""


def test_the_table_page_shows_each_seats_time_bank(
    new_page, live_url, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    ana = new_page()
    name = signup(ana, "bank")
    table = int(_shell(db, BANKED.format(name=name)).strip().splitlines()[-1])
    ana.goto(f"/tables/{table}/")
    ana.wait_for_function("() => window.dominoTable && window.dominoTable.ui.frame")
    mover = ana.evaluate("() => window.dominoTable.ui.frame.table.timer.seat")
    waiting = 1 - mover
    clock = ana.locator(f'#seats li[data-seat="{mover}"] .clock')
    expect(clock).to_have_text(re.compile(r"^0:(2\d|30)$"))
    expect(ana.locator(f'#seats li[data-seat="{waiting}"] .bank')).to_have_text(
        "time bank 1:00"
    )
    _shell(db, INTO_THE_BANK.format(table=table))
    ana.reload()
    expect(clock).to_have_text(re.compile(r"^time bank 0:4\d$"))
    expect(clock).to_have_class(re.compile(r"\bin-bank\b"))
    screenshot(ana, "table-time-bank")
