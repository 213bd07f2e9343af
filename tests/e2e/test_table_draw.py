"""Sign up, start a 2-seat Draw game against an easy computer, play it to the end."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import act_once, frame, screenshot, signup, start_practice

pytestmark = pytest.mark.e2e


def test_draw_match_played_by_clicking_to_the_result(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", seats=2, levels=("easy",), target=50)
    expect(page.locator("#seats .seat")).to_have_count(2)
    expect(page.locator("#seats")).to_contain_text("computer")
    shot_mid = shot_end = False
    for _ in range(400):
        f = frame(page)
        view = f["view"]
        if view["phase"] == "match_over":
            break
        if (
            not shot_mid
            and view["phase"] == "play"
            and len(view["layout"]["arms"])
            and (sum(view["hand_counts"]) < 11)
        ):
            screenshot(page, "draw-mid-hand")
            shot_mid = True
        if view["phase"] == "hand_over" and not shot_end:
            expect(page.locator("#result")).to_be_visible()
            expect(page.locator("#result")).to_contain_text("Scores")
            screenshot(page, "draw-hand-breakdown")
            shot_end = True
        act_once(page)
    else:
        pytest.fail("the match did not end")
    expect(page.locator("#result")).to_be_visible()
    page.locator("#main-action").click()  # Finish
    result = page.locator("#match-result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("won the match")
    expect(result.get_by_role("button", name="Rematch")).to_be_visible()
    screenshot(page, "draw-match-result")
    assert shot_mid
    result.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: f"/tables/{f['table']['id']}/" not in url)


def test_play_form_offers_only_valid_combinations(new_page):
    page = new_page()
    signup(page)
    page.goto("/play/")
    screenshot(page, "play-page-laptop")
    page.select_option("select[name=variant]", "spider")
    enabled = page.locator("select[name=seats] option:not([disabled])")
    expect(enabled).to_have_count(1)
    expect(page.locator('.rule[data-variant="spider"]')).to_be_visible()
    expect(page.locator('.rule[data-variant="draw"]')).to_be_hidden()
    expect(page.locator("input[name=partnership]")).to_be_hidden()
    page.select_option("select[name=variant]", "catalan")
    page.select_option("select[name=seats]", "4")
    partner = page.locator("input[name=partnership]")
    expect(partner).to_be_checked()
    expect(partner).to_be_disabled()
    expect(page.locator("select[name=bot_3]")).to_be_visible()
    expect(page.locator("select[name=bot_4]")).to_be_hidden()
    expect(page.locator("select[name=tiles_per_seat]")).to_be_visible()
    expect(page.locator("select[name=set_max] option:not([disabled])")).to_have_count(1)
    phone = new_page(390, 844)
    signup(phone)
    phone.goto("/play/")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(phone, "play-page-phone")
