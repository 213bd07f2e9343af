"""The league page in a browser: standings and zones, updated after a table finishes.

Tables are finished in the server's own database (its SQLite file) by a separate
``manage.py shell`` process, through the same services and point recorder the finish
receiver uses; the page learns of them only by its polling.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

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


def finish_on_server(db: Path, names: list[str], places: list[int]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in SERVER_STRIP}
    env.update(SQLITE_PATH=str(db), DJANGO_SETTINGS_MODULE="config.settings")
    subprocess.run(
        [
            str(ROOT / ".venv" / "bin" / "python"),
            "manage.py",
            "shell",
            "-c",
            FINISH.format(names=names, places=places),
        ],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )


def test_league_page_shows_zones_and_updates(new_page, live_url, tmp_path_factory):
    # live_url's server database: the session's one "e2e-server<N>" folder.
    (db,) = tmp_path_factory.getbasetemp().glob("e2e-server[0-9]*/db.sqlite3")
    me_page, other_page = new_page(), new_page()
    me, other = signup(me_page, "ana"), signup(other_page, "ben")
    finish_on_server(db, [me, other], [1, 2])
    me_page.goto("/league/")
    rows = me_page.locator("#league-standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(me)
    expect(rows.nth(0)).to_have_class("zone-up me")
    expect(rows.nth(1)).to_contain_text("3.0")
    expect(me_page.locator("#league-time-left")).not_to_be_empty()
    expect(me_page.get_by_text("How points are earned")).to_be_visible()
    # ben wins twice more against a simulated player (half weight: 5 each).
    finish_on_server(db, [other, "bot"], [1, 2])
    finish_on_server(db, [other, "bot"], [1, 2])
    expect(rows.nth(0)).to_contain_text(other, timeout=15_000)
    expect(rows.nth(0)).to_contain_text("13.0")
    expect(rows.nth(1)).to_contain_text(me)
    screenshot(me_page, "league-page")
