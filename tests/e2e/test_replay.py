"""The replay viewer in the browser: a player plays a hand, leaves, opens the replay,
steps through it with the buttons and the arrow keys, sees every hand face up and
the deal checked against the fair deal's commitment; the share link opens it for
someone signed out; and the page fits a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import act_once, frame, screenshot, signup, start_practice

pytestmark = pytest.mark.e2e

PHONE = (390, 844)


def test_a_player_replays_a_left_game_and_shares_it(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", seats=2, levels=("easy",), target=100)
    table_id = frame(page)["table"]["id"]
    for _ in range(12):
        if frame(page)["view"]["phase"] != "play":
            break
        act_once(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#leave").click()
    expect(page.locator("#status")).to_contain_text("abandoned")

    page.goto(f"/tables/{table_id}/replay/")
    app = page.locator("#replay-app")
    expect(app).to_be_visible()
    counter = page.locator("#replay-counter")
    expect(counter).to_contain_text("Move 0 of")
    total = int(re.search(r"of (\d+)", counter.inner_text())[1])
    assert total >= 2
    # At the deal the board is empty and both hands lie face up.
    expect(page.locator("#replay-faces li")).to_have_count(3)  # two seats, the stock
    expect(page.locator("#replay-faces li").first.locator(".tile")).to_have_count(7)
    expect(page.locator("#board .arm-tiles .tile")).to_have_count(0)
    expect(page.locator("#replay-verify")).to_contain_text(
        "Hand 1: this deal matches the commitment."
    )
    page.locator("#replay-next").click()
    expect(counter).to_contain_text("Move 1 of")
    expect(page.locator("#board .arm-tiles .tile")).to_have_count(1)
    expect(page.locator('#replay-moves [aria-current="step"]')).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(counter).to_contain_text("Move 2 of")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_contain_text("Move 1 of")
    page.locator("#replay-last").click()
    expect(counter).to_contain_text(f"Move {total} of {total}")
    expect(page.locator("#status")).to_contain_text("abandoned")
    # A move in the list jumps to it; the address keeps the step for a shared link.
    page.locator("#replay-moves [data-step='1'] button").click()
    expect(counter).to_contain_text("Move 1 of")
    assert page.url.endswith("#step-1")
    screenshot(page, "replay-desktop")

    # The text record lists the deal and the moves.
    record = page.request.get(f"/tables/{table_id}/record.txt").text()
    assert f'[Table "{table_id}"]' in record and "\n1. S" in record

    # Signed out, the practice replay opens only through its share link.
    link = page.locator("#replay-link").input_value()
    assert "?share=" in link
    stranger = new_page(*PHONE)
    assert stranger.goto(f"/tables/{table_id}/replay/").status == 404
    stranger.goto(link)
    expect(stranger.locator("#replay-app")).to_be_visible()
    expect(stranger.locator("#replay-verify")).to_contain_text("matches the commitment")
    stranger.locator("#replay-last").click()
    wide = stranger.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE[0], f"the replay scrolls sideways on a phone ({wide}px)"
    screenshot(stranger, "replay-phone")
