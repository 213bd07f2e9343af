"""The league page in a browser: standings and zones, updated after a table finishes;
what a competitive player reads there (issue 31), in English and Spanish, on a desktop
and a phone, in a time zone other than UTC.

Tables are finished in the server's own database (its SQLite file) by a separate
``manage.py shell`` process, through the same services and point recorder the finish
receiver uses; the page learns of them only by its polling.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT, SERVER_STRIP
from tests.e2e.helpers import screenshot, signup

pytestmark = pytest.mark.e2e

FINISH = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from tests.leagues.conftest import finish
User = get_user_model()
seats = [User.objects.get(username=n) if n != "bot" else n for n in {names!r}]
finish(seats=seats, places={places!r}, at=timezone.now())
"""

FINISH_MANY = """
import json
from django.contrib.auth import get_user_model
from django.utils import timezone
from tests.leagues.conftest import finish
User = get_user_model()
ids = []
for names, places, partnership in {tables!r}:
    seats = [User.objects.get(username=n) if n != "bot" else n for n in names]
    table = finish(
        seats=seats, places=places, at=timezone.now(), partnership=partnership
    )
    ids.append(table.pk)
print(json.dumps(ids))
"""

# The browser tests share one server: players of earlier tests who earned league
# points this week share its one group. A test that counts the group's rows
# removes them from the week's standings first.
LEAGUE_ONLY = """
from leagues.models import Membership
Membership.objects.exclude(user__username__in={names!r}).delete()
"""

# No daylight saving time: the week's end (Monday 00:00 UTC) is always 05:30 there.
KOLKATA = "Asia/Kolkata"
DESKTOP = (1280, 800)
PHONE = (390, 844)


def _shell(db: Path, code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in SERVER_STRIP}
    env.update(SQLITE_PATH=str(db), DJANGO_SETTINGS_MODULE="config.settings")
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    return done.stdout


def league_only(db: Path, names: list[str]) -> None:
    _shell(db, LEAGUE_ONLY.format(names=names))


def finish_on_server(db: Path, names: list[str], places: list[int]) -> None:
    _shell(db, FINISH.format(names=names, places=places))


def finish_many_on_server(
    db: Path, tables: list[tuple[list[str], list[int], bool]]
) -> list[int]:
    """Finish ``(names, places, partnership)`` tables in order; their ids."""
    out = _shell(db, FINISH_MANY.format(tables=tables))
    return list(json.loads(out.strip().splitlines()[-1]))


def server_db(tmp_path_factory) -> Path:
    """live_url's server database: the session's one "e2e-server<N>" folder."""
    (db,) = tmp_path_factory.getbasetemp().glob("e2e-server[0-9]*/db.sqlite3")
    return db


def test_league_page_shows_zones_and_updates(new_page, live_url, tmp_path_factory):
    db = server_db(tmp_path_factory)
    me_page, other_page = new_page(), new_page()
    me, other = signup(me_page, "ana"), signup(other_page, "ben")
    league_only(db, [me, other])
    finish_on_server(db, [me, other], [1, 2])
    me_page.goto("/league/")
    rows = me_page.locator("#league-standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(me)
    expect(rows.nth(0)).to_have_class("zone-up me")
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("3")
    expect(me_page.locator("#league-time-left")).not_to_be_empty()
    expect(me_page.get_by_text("How points are earned")).to_be_visible()
    # ben wins twice more against a simulated player (half weight: 5 each).
    finish_on_server(db, [other, "bot"], [1, 2])
    finish_on_server(db, [other, "bot"], [1, 2])
    expect(rows.nth(0)).to_contain_text(other, timeout=15_000)
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("13")
    expect(rows.nth(1)).to_contain_text(me)
    screenshot(me_page, "league-page")


def both_sizes(page: Page, name: str) -> None:
    """Screenshots of the page as it is, on a phone and on a desktop; the phone's
    page never scrolls sideways (the wide table scrolls inside its card)."""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"{name}: the phone page scrolls sideways ({width}px)"
    screenshot(page, f"{name}-phone")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    screenshot(page, f"{name}-desktop")


def points_cell(page: Page, name: str):
    row = page.locator("#league-standings tbody tr").filter(has_text=name)
    return row.locator("td").nth(2)


def test_league_page_reads_as_a_competitive_player_needs(
    new_page, live_url, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    page = new_page(timezone_id=KOLKATA)
    me = signup(page, "eva")
    ben, *partners = [signup(new_page(), p) for p in ("ben", "cy", "dee", "fay")]
    # Three wins over ben count; a fourth that day is over the same-pair limit; a
    # partnership win; a second place at a table completed by a simulated player.
    ids = finish_many_on_server(
        db,
        [
            ([me, ben], [1, 2], False),
            ([me, ben], [1, 2], False),
            ([me, ben], [1, 2], False),
            ([me, ben], [1, 2], False),
            ([me, *partners], [1, 2, 1, 2], True),
            ([me, "bot"], [2, 1], False),
        ],
    )
    page.goto("/league/")
    body = page.locator("main")

    # The week's end in the reader's time zone (Monday 00:00 UTC is 5:30 there).
    week_end = page.locator("#league-week-end")
    expect(week_end).to_contain_text("Monday")
    expect(week_end).to_contain_text("5:30")
    expect(week_end).not_to_contain_text("UTC")
    expect(page.locator("#league-time-left")).to_contain_text(re.compile(r"\d"))

    # Rewards by rank (Bronze's settings), no demotion legend in Bronze.
    expect(page.locator("#league-rewards li")).to_have_text(
        ["Rank 1: 50 coins", "Rank 2: 30 coins", "Rank 3: 20 coins"]
    )
    expect(page.locator(".legend .up")).to_be_visible()
    expect(page.locator(".legend .down")).to_have_count(0)
    expect(body).not_to_contain_text("bottom 0")

    # Whole points stay whole; halves keep their one decimal (30 + 8 + 1.5).
    expect(points_cell(page, me)).to_have_text("39.5")
    expect(points_cell(page, ben)).to_have_text("9")

    # Shapes in words, never their settings keys.
    expect(body).to_contain_text("4 players in partnership: 8 / 2")
    assert not re.search(r"\b\dp\b", body.inner_text())

    # My tables: newest first, each linking to its table, weight and counted shown.
    mine = page.locator("#league-my-tables tbody tr")
    expect(mine).to_have_count(6)
    links = page.locator("#league-my-tables tbody tr a")
    expect(links).to_have_count(6)
    hrefs = [links.nth(i).get_attribute("href") for i in range(6)]
    assert hrefs == [f"/tables/{i}/" for i in reversed(ids)]
    expect(mine.nth(0).locator("td").nth(3)).to_have_text("1.5")
    expect(mine.nth(0).locator("td").nth(4)).to_have_text("½")
    expect(mine.nth(2)).to_have_class("not-counted")
    expect(mine.nth(2).locator("td").nth(5)).to_have_text("no: same-pair daily limit")
    expect(mine.nth(3).locator("td").nth(5)).to_have_text("yes")
    expect(mine.nth(2).locator("td").nth(3)).to_have_text("0")
    expect(mine.nth(3)).to_have_class("counted")
    expect(mine.nth(0).locator("time")).not_to_contain_text("UTC")
    both_sizes(page, "league-issue31-en")

    # The next poll draws a new table into the list, linked, in local time too.
    (late,) = finish_many_on_server(db, [([me, "bot"], [1, 2], False)])
    expect(mine).to_have_count(7, timeout=15_000)
    expect(mine.nth(0).locator("a")).to_have_attribute("href", f"/tables/{late}/")
    expect(mine.nth(0).locator("time")).not_to_contain_text("UTC")
    expect(points_cell(page, me)).to_have_text("44.5")
    expect(page.locator("#league-standings tbody tr a").first).to_have_attribute(
        "href", f"/players/{me}/"
    )

    # Spanish, from the footer's switcher: the moment and the numbers follow.
    page.locator("footer select[name=language]").select_option("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(week_end).to_contain_text("lunes")
    expect(week_end).to_contain_text("5:30")
    expect(points_cell(page, me)).to_have_text("44,5")
    expect(mine.nth(1).locator("td").nth(3)).to_have_text("1,5")
    both_sizes(page, "league-issue31-es")

    # A name leads to that player's profile.
    page.locator("#league-standings").get_by_role("link", name=ben).click()
    expect(page).to_have_url(re.compile(rf"/players/{ben}/$"))
    expect(page.locator("main")).to_contain_text(ben)
