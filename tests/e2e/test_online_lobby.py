"""Two people find each other in the online lobby and play at one table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import act_once, frame, signup, wait_ready

pytestmark = pytest.mark.e2e


def test_two_browsers_are_seated_together_and_see_each_others_move(new_page):
    ana, ben = new_page(), new_page()
    names = [signup(ana, "ana"), signup(ben, "ben")]
    for page in (ana, ben):
        page.goto("/")
        page.locator("#play-online").click()
        page.wait_for_url(re.compile(r"/play/online/$"))
        expect(page.locator('li.pool[data-pool="draw-2"]')).to_be_visible()
    ana.locator('button.find[data-pool="draw-2"]').click()
    expect(ana.locator("#lobby-search")).to_be_visible()
    expect(ana.locator('#lobby-search [data-field="range"]')).to_contain_text("–")
    # Ben's lobby counts Ana as waiting, live.
    expect(
        ben.locator('li.pool[data-pool="draw-2"] [data-count="waiting"]')
    ).to_have_text("1")
    # A reload keeps Ana's search.
    ana.reload()
    expect(ana.locator("#lobby-search")).to_be_visible()
    ben.locator('button.find[data-pool="draw-2"]').click()
    for page in (ana, ben):
        page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=20_000)
        wait_ready(page)
    assert ana.url == ben.url
    seats = {s["name"] for s in frame(ana)["seats"]}
    assert seats == set(names)
    assert frame(ana)["table"]["mode"] == "online"
    mover, watcher = (ana, ben) if frame(ana)["view"]["legal"] else (ben, ana)
    seq = frame(mover)["seq"]
    assert act_once(mover)
    watcher.wait_for_function(
        f"() => window.dominoTable.ui.frame.seq > {seq}", timeout=15_000
    )
    assert frame(watcher)["seq"] == frame(mover)["seq"] > seq
