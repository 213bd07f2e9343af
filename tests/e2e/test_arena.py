"""Two people join an arena, are paired at once and sent to their table; when the
game ends, a third person watching the arena sees the standings move over its
socket, without reloading; the table page's match end leads back to the arena,
where the players see their score.

The arena (starting now) is made in the server's own database by a ``manage.py
shell`` process, and the game is played there through the table services
(``tests.support.tables.drive``); the server's own tick starts the arena, pairs the
players and pushes the standings. That process owes the table no league points (its
league consequence is unregistered) and pushes no standings of its own.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup, wait_ready
from tests.e2e.test_league_page import _shell, server_db

pytestmark = pytest.mark.e2e

ARENA = """
from django.utils import timezone
from tournaments.arenas.models import Arena
from tournaments.arenas.services import arena_create
arena = arena_create(pool_key="draw-2", starts_at=timezone.now(), minutes=30)
Arena.objects.filter(pk=arena.pk).update(options={**arena.options, "target": 50})
print(arena.pk)
"""

PLAY = """
import random
from games import finish
from games.errors import TableError
from games.models import Table
from tests.support.tables import drive
from tournaments.arenas import notify
finish._registry.pop("league", None)
notify.standings_push = lambda **kwargs: 0  # the server's tick sends them
table = Table.objects.get(pk={table_id})
users = {{seat.position: seat.user for seat in table.seats.all()}}
for attempt in range(30):
    try:
        drive(table.pk, users, rng=random.Random(attempt))
        break
    except TableError:
        continue  # the server moved the table meanwhile (its deal, a clock)
print(Table.objects.get(pk=table.pk).status)
"""


def test_two_people_play_an_arena_and_the_standings_move(new_page, tmp_path_factory):
    db = server_db(tmp_path_factory)
    ana_page, ben_page, cy_page = new_page(), new_page(), new_page()
    ana, ben = signup(ana_page, "ana"), signup(ben_page, "ben")
    signup(cy_page, "cy")
    arena_id = int(_shell(db, ARENA).strip().splitlines()[-1])
    url = f"/tournaments/arenas/{arena_id}/"

    # The tournaments page lists it; the watcher opens it without joining.
    cy_page.goto("/tournaments/")
    cy_page.locator(f"#arenas a[href='{url}']").first.click()
    expect(cy_page.locator("#arena-countdown")).not_to_be_empty()
    ana_page.goto(url)
    ana_page.locator("#arena-join").click()
    expect(ana_page.locator("#arena-withdraw")).to_be_visible()  # alone: waits
    # Ben's join pairs the two at once, so his page may already be on its way
    # to the table before his arena page shows the pause button. His join's
    # answer is held back from his page (the server has it and answers): the
    # socket sends him to the table first, as a slow answer would.
    held = []
    ben_page.route("**/join/", lambda route: held.append(route.fetch(max_redirects=0)))
    ben_page.goto(url)
    ben_page.locator("#arena-join").click()
    rows = cy_page.locator("#arena-standings tbody tr")
    expect(rows).to_have_count(2)  # the joins reached the watcher's socket

    # The server's tick starts the arena and pairs them: both go to one table.
    ana_page.wait_for_url(re.compile(r"/tables/\d+/"), timeout=30_000)
    ben_page.wait_for_url(re.compile(r"/tables/\d+/"), timeout=30_000)
    assert ana_page.url == ben_page.url
    assert held and held[0].status in (200, 302)  # the server took the join
    # The arena page's words about itself stay on the arena page.
    wait_ready(ben_page)
    expect(ben_page.get_by_text("Keep this page open")).to_have_count(0)
    ben_page.unroute("**/join/")
    table_id = int(re.search(r"/tables/(\d+)/", ana_page.url).group(1))
    expect(rows.first).to_contain_text("playing")
    for page in (ana_page, ben_page):
        page.goto("/")  # away from the arena: nobody is paired again meanwhile

    cy_page.evaluate("() => { window.notReloaded = true; }")
    status = _shell(db, PLAY.format(table_id=table_id)).strip().splitlines()[-1]
    assert status == "finished"
    # The finished game reaches the watcher's open page over the socket.
    expect(rows.first.locator("td").nth(2)).to_have_text("2", timeout=20_000)
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("0")
    for i in range(2):
        expect(rows.nth(i).locator("td").nth(4)).to_have_text("1")  # games
    assert cy_page.evaluate("() => window.notReloaded === true")
    winner = rows.first.locator("td").nth(1).inner_text()
    assert winner in (ana, ben)
    screenshot(cy_page, "arena-standings")

    # The table page's match end leads back to the arena, where the player sees
    # their own line, highlighted.
    ana_page.goto(f"/tables/{table_id}/")
    wait_ready(ana_page)
    expect(ana_page.locator("#main-action")).to_have_text("Finish")
    ana_page.locator("#main-action").click()
    back = ana_page.locator("#match-result [data-event]")
    expect(back).to_have_text("Back to the arena")
    # Two people: the chat is there, whole. The rating's "?" is explained, and
    # the arena's prize is said to come with its final standings.
    expect(ana_page.locator("#chat")).to_be_visible()
    expect(ana_page.locator("#chat")).not_to_contain_text("null")
    rating = ana_page.locator("#match-result [data-rating]")
    expect(rating).to_contain_text("?")
    expect(rating).to_have_attribute("aria-describedby", "rating-legend")
    legend = ana_page.locator("#rating-legend")
    expect(legend).to_contain_text("?: a provisional rating, until 10 rated tables")
    expect(rating).to_have_attribute("title", legend.inner_text())
    standing = ana_page.locator('#match-result [data-event-standing="running"]')
    expect(standing).to_contain_text(
        "Your arena prize is decided by the final standings when the arena ends."
    )
    expect(standing.locator("a[data-standings]")).to_have_attribute("href", url)
    screenshot(ana_page, "arena-table-result")
    expect(ana_page.locator("#match-result [data-again]")).to_have_count(0)
    back.click()
    ana_page.wait_for_url(f"**{url}")
    mine = ana_page.locator("#arena-standings tbody tr.me")
    expect(mine).to_contain_text(ana)
    expect(mine.locator("td").nth(4)).to_have_text("1")
