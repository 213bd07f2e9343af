"""Two clubs meet in a team battle in Chromium: each club's leader joins for
their club, the server pairs them (never teammates) and sends them to their table;
when the game ends, a third person watching the battle sees the clubs' standings
move over its socket, without reloading.

The clubs and the battle (starting now) are made in the server's own database by a
``manage.py shell`` process, and the game is played there through the table
services, as in the arena's browser test."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup
from tests.e2e.test_arena import PLAY
from tests.e2e.test_league_page import _shell, server_db

pytestmark = pytest.mark.e2e

BATTLE = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from clubs.services import club_create
from tournaments.arenas.battles import battle_create
from tournaments.arenas.models import Arena
User = get_user_model()
north = club_create(
    user=User.objects.get(username={ana!r}), name="North Harbour", description="",
    language="en", open=True,
)
club_create(
    user=User.objects.get(username={ben!r}), name="South Pier", description="",
    language="en", open=True,
)
arena = battle_create(
    user=User.objects.get(username={ana!r}), club_slug=north.slug,
    rivals=["South Pier"], name="North against South", pool_key="draw-2",
    starts_at=timezone.now() + timedelta(minutes=10), minutes=30, team_size=3,
)
Arena.objects.filter(pk=arena.pk).update(
    starts_at=timezone.now(), options={{**arena.options, "target": 50}}
)
print(arena.pk)
"""


def test_two_clubs_meet_in_a_team_battle_with_live_standings(
    new_page, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    ana_page, ben_page, cy_page = new_page(), new_page(), new_page()
    ana, ben = signup(ana_page, "ana"), signup(ben_page, "ben")
    signup(cy_page, "cy")
    battle_id = int(
        _shell(db, BATTLE.format(ana=ana, ben=ben)).strip().splitlines()[-1]
    )
    url = f"/tournaments/arenas/{battle_id}/"

    # The watcher is in neither club: the page says so, and shows both clubs.
    cy_page.goto(url)
    expect(cy_page.locator("h1")).to_contain_text("Team battle: North against South")
    expect(cy_page.locator("#battle-closed")).to_be_visible()
    clubs = cy_page.locator("#battle-standings tbody tr")
    expect(clubs).to_have_count(2)

    # Each leader reaches the battle from their club's page and joins.
    for page in (ana_page, ben_page):
        page.goto("/clubs/")
        page.locator("#my-clubs a").first.click()
        page.locator(f"#club-battles a[href='{url}']").click()
        page.locator("#arena-join").click()
    ana_page.wait_for_url(re.compile(r"/tables/\d+/"), timeout=30_000)
    ben_page.wait_for_url(re.compile(r"/tables/\d+/"), timeout=30_000)
    assert ana_page.url == ben_page.url
    table_id = int(re.search(r"/tables/(\d+)/", ana_page.url).group(1))
    for page in (ana_page, ben_page):
        page.goto("/")  # away from the battle: nobody is paired again meanwhile

    cy_page.evaluate("() => { window.notReloaded = true; }")
    status = _shell(db, PLAY.format(table_id=table_id)).strip().splitlines()[-1]
    assert status == "finished"
    # The winner's club leads with the game's 2 points, live on the open page.
    expect(clubs.first.locator("td").nth(2)).to_have_text("2", timeout=20_000)
    expect(clubs.nth(1).locator("td").nth(2)).to_have_text("0")
    assert cy_page.evaluate("() => window.notReloaded === true")
    players = cy_page.locator("#arena-standings tbody tr")
    winner = players.first.locator("td").nth(1).inner_text()
    leading = clubs.first.locator("td").nth(1).inner_text()
    assert leading == ("North Harbour" if winner == ana else "South Pier")
    screenshot(cy_page, "team-battle-standings")
