"""A player switches the site to Català from the footer: the Play page, the table's
buttons and messages follow, a move is played, and the choice is still there after
logging out and in again (also on a browser that never chose)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    PASSWORD,
    frame,
    play_tile,
    signup,
    wait_for_me,
    wait_ready,
)
from tests.support.catalogs import english_found

pytestmark = pytest.mark.e2e


def choose_catalan(page: Page) -> None:
    page.goto("/")
    page.locator("footer select[name=language]").select_option("ca")
    expect(page.locator("html")).to_have_attribute("lang", "ca")


def log_in(page: Page, name: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("header")).to_contain_text(name)


def english_on(page: Page) -> list[str]:
    return english_found(
        page.locator("body").inner_text(), "ca", ("django", "djangojs")
    )


def test_catalan_from_the_footer_to_the_table_and_back(new_page):
    page = new_page()
    choose_catalan(page)
    name = signup(page, "catala")

    page.goto("/play/")
    expect(page.locator("html")).to_have_attribute("lang", "ca")
    assert english_on(page) == []
    page.select_option("select[name=variant]", "draw")
    page.select_option("select[name=bot_1]", "easy")
    page.select_option("select[name=bot_speed]", "instant")
    page.locator("#play-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    wait_ready(page)

    f = wait_for_me(page)
    plays = [a for a in f["view"]["legal"] if a["type"] == "play"]
    if plays:
        play_tile(page, plays[0])
    else:
        page.locator("#main-action").click()
    page.wait_for_function(
        "seq => window.dominoTable.ui.frame.seq > seq", arg=f["seq"], timeout=15_000
    )
    wait_for_me(page)
    assert frame(page)["view"]["phase"] in ("play", "hand_over", "match_over")
    expect(page.locator("#main-action")).to_be_visible()
    assert english_on(page) == [], "the table shows English"

    page.locator("header form button[type=submit]").click()  # log out
    expect(page.locator("html")).to_have_attribute("lang", "ca")
    log_in(page, name)
    expect(page.locator("html")).to_have_attribute("lang", "ca")

    elsewhere = new_page()  # no cookie: the profile brings the choice
    log_in(elsewhere, name)
    elsewhere.goto("/play/")
    expect(elsewhere.locator("html")).to_have_attribute("lang", "ca")
