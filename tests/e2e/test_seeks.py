"""Open tables in the online lobby: one player opens a table, the other sees it
appear without reloading, joins with one click, and both land at the same table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import frame, signup, wait_ready

pytestmark = pytest.mark.e2e


def test_an_open_table_appears_live_and_one_click_seats_both(new_page):
    ana, ben = new_page(), new_page()
    names = [signup(ana, "ana"), signup(ben, "ben")]
    for page in (ana, ben):
        page.goto("/play/online/")
        expect(page.locator('li.pool[data-pool="draw-2"]')).to_be_visible()
        expect(page.locator('button.seek-open[data-pool="draw-2"]')).to_be_enabled()
    card = ana.locator('li.pool[data-pool="draw-2"]')
    card.locator("select.speed").select_option("fast")
    card.locator("input.seek-rated").uncheck()
    card.locator("button.seek-open").click()
    mine = ana.locator("#lobby-seeks li.seek.mine")
    expect(mine).to_contain_text(names[0])
    # Ana may not search or open another while her table is open.
    expect(ana.locator('button.find[data-pool="draw-2"]')).to_be_disabled()
    # Ben's lobby shows it live, with Ana's provisional rating.
    offered = ben.locator("#lobby-seeks li.seek")
    expect(offered).to_have_count(1)
    expect(offered).to_contain_text(f"{names[0]} (1500?)")
    offered.locator("button.seek-join").click()
    for page in (ana, ben):
        page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=20_000)
        wait_ready(page)
    assert ana.url == ben.url
    state = frame(ana)
    assert {s["name"] for s in state["seats"]} == set(names)
    assert state["table"]["mode"] == "friend"
