"""What a newcomer meets: leaving, the status line, My games, error pages, names,
the Fives spinner, the phone's main button and the sound toggle (issue 19).

Each test saves screenshots of the screen it checks, at 1280×800 and 390×844.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    act_once,
    frame,
    record_state_frames,
    screenshot,
    shows_the_servers_state,
    signup,
    start_practice,
    wait_for_me,
    wait_ready,
)

pytestmark = pytest.mark.e2e

DESKTOP = (1280, 800)
PHONE = (390, 844)


def both_sizes(page: Page, name: str) -> None:
    """Screenshots of the page as it is, on a desktop and on a phone."""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_timeout(300)  # the board snakes again after the resize
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"{name}: the phone page scrolls sideways ({width}px)"
    screenshot(page, f"{name}-phone")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.wait_for_timeout(300)
    screenshot(page, f"{name}-desktop")


def play_until(page: Page, done: str, limit: int = 400) -> dict:
    """Act until the JavaScript predicate ``done(frame)`` holds; that frame."""
    for _ in range(limit):
        f = wait_for_me(page)
        if page.evaluate(f"(f) => ({done})(f)", f):
            return f
        if f["view"]["phase"] == "match_over":
            break
        act_once(page)
    raise AssertionError(f"never reached {done}")


def test_leave_a_game_and_see_abandoned_within_a_second(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", levels=("easy",), speed="normal")
    f = wait_for_me(page)
    if f["view"]["legal"]:
        act_once(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#leave").click()
    expect(page.locator("#status")).to_contain_text("abandoned", timeout=1_000)
    both_sizes(page, "left-game-abandoned")


def test_no_null_in_the_status_line_over_a_played_hand(new_page):
    page = new_page()
    received = record_state_frames(page)
    signup(page)
    start_practice(page, "all_fives", levels=("easy",))
    seen = set()
    patched = 0  # turns that came as patches, which the page applied itself
    hand = frame(page)["view"]["hand_no"]
    for _ in range(200):
        f = wait_for_me(page)
        patched += shows_the_servers_state(page, received)
        text = page.locator("#status").inner_text()
        seen.add(text)
        assert "null" not in text and "undefined" not in text, text
        if f["view"]["phase"] in ("hand_over", "match_over") or (
            f["view"]["hand_no"] != hand
        ):
            break
        act_once(page, prefer="points")
    else:
        raise AssertionError("the hand never ended")
    assert len(seen) > 3, seen
    assert patched > 3
    # The summary says what the hand scored, claims included.
    result = page.locator("#result")
    if result.is_visible():
        expect(result.locator(".points-list .total")).to_contain_text("This hand")
    both_sizes(page, "status-line-hand-end")


def test_my_games_lists_a_live_game_and_resume_returns_to_it(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "block", levels=("medium",))
    table_id = frame(page)["table"]["id"]
    page.goto("/games/")
    row = page.locator(f"tr[data-table='{table_id}']")
    expect(row).to_contain_text("Block")
    expect(row).to_contain_text("Computer 2 · medium")
    both_sizes(page, "my-games")
    row.get_by_role("link", name="Resume").click()
    page.wait_for_url(re.compile(rf"/tables/{table_id}/$"))
    wait_ready(page)
    assert frame(page)["table"]["id"] == table_id
    assert frame(page)["table"]["status"] == "playing"
    # Left, it is listed with its result and opens its history.
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#leave").click()
    expect(page.locator("#status")).to_contain_text("abandoned")
    page.goto("/games/")
    row = page.locator(f"tr[data-table='{table_id}']")
    expect(row).to_contain_text("Abandoned")
    row.get_by_role("link", name="History").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Block · table {table_id}"
    )
    expect(page.locator("main")).to_contain_text("Computer 2 · medium")
    expect(page.locator("main")).not_to_contain_text("Computer (")
    both_sizes(page, "history")


def test_a_404_page_has_the_site_navigation(new_page):
    page = new_page()
    signup(page)
    response = page.goto("/no-such-page/")
    assert response is not None and response.status == 404
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Play", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "We could not find that page."
    )
    expect(page.locator("body")).not_to_contain_text("Not Found")
    both_sizes(page, "page-404")


def test_a_four_seat_game_shows_four_distinct_names(new_page):
    page = new_page()
    console_errors: list[str] = []
    page.on(
        "console",
        lambda msg: console_errors.append(msg.text) if msg.type == "error" else None,
    )
    name = signup(page)
    start_practice(page, "draw", seats=4, levels=("easy", "easy", "hard"))
    names = page.locator("#seats .seat-name").all_inner_texts()
    assert len(names) == 4 and len(set(names)) == 4, names
    assert names[0] == f"{name} (you)"
    assert names[1:] == ["Computer 2 · easy", "Computer 3 · easy", "Computer 4 · hard"]
    both_sizes(page, "four-seat-names")
    # Not even the favicon is missing.
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon and page.request.get(icon).status == 200
    assert console_errors == []


def test_the_fives_spinner_has_one_centre_tile_with_its_arms(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "fives", levels=("easy",))
    f = play_until(page, "f => f.view.layout.spinner !== null")
    spinner = f["view"]["layout"]["spinner"]
    key = f"{min(spinner)}-{max(spinner)}"
    centre = page.locator("#board .spinner-centre .tile.spinner")
    expect(centre).to_have_count(1)
    # Drawn once: no other picture of the spinner anywhere on the board.
    expect(page.locator(f'#board .tile[data-tile="{key}"]')).to_have_count(1)
    arms = page.locator("#board .spin-arm")
    expect(arms).to_have_count(4)
    for compass in ("West", "East", "North", "South"):
        expect(
            page.get_by_role("group", name=re.compile(rf"^{compass} arm from "))
        ).to_be_visible()
    box = centre.bounding_box()
    board = page.locator("#board").bounding_box()
    assert box and board
    middle = box["x"] + box["width"] / 2
    assert abs(middle - (board["x"] + board["width"] / 2)) < board["width"] * 0.2
    both_sizes(page, "fives-spinner")


def test_on_a_phone_the_main_button_is_in_view_at_hand_end(new_page):
    page = new_page(*PHONE)
    signup(page)
    start_practice(page, "draw", levels=("easy",))
    play_until(
        page,
        "f => f.view.phase === 'hand_over'"
        " && f.view.legal.some(a => a.type === 'next_hand')",
    )
    button = page.locator("#main-action")
    expect(button).to_have_text("Next hand")
    # Long arms snake onto more rows: none needs a sideways scroll, once the board
    # has been laid out for its width (a scrollbar may come as the page grows).
    page.wait_for_function(
        "() => [...document.querySelectorAll('#board .arm-tiles')]"
        ".every(b => b.scrollWidth - b.clientWidth <= 1)",
        timeout=3000,
    )
    # The board narrowed without the window resizing (nothing else lays it out
    # again meanwhile): the hand's rows are laid out again for the new width.
    page.locator("#board").evaluate("b => { b.style.width = '60%'; }")
    page.wait_for_function(
        "() => { const boxes = [...document.querySelectorAll('#board .arm-tiles')];"
        " return boxes.some(b => b.children.length > 1)"
        " && boxes.every(b => b.scrollWidth - b.clientWidth <= 1); }",
        timeout=3000,
    )
    page.locator("#board").evaluate("b => { b.style.width = ''; }")
    rect = button.bounding_box()
    assert rect is not None
    assert rect["y"] >= 0, rect
    assert rect["y"] + rect["height"] <= PHONE[1], rect
    screenshot(page, "phone-hand-end-phone")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    screenshot(page, "phone-hand-end-desktop")


def test_the_sound_toggle_persists_across_reloads(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "block", levels=("easy",))
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_text("Sound: on")
    toggle.click()
    expect(toggle).to_have_text("Sound: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_ready(page)
    # Nothing plays before the player touches this page.
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.dominoTable.ui.sounds.context === null")
    expect(page.locator("#sound-toggle")).to_have_text("Sound: off")
    assert page.evaluate("() => localStorage.getItem('dominoes.sound')") == "off"
    both_sizes(page, "sound-toggle")
    page.locator("#sound-toggle").click()
    page.reload()
    wait_ready(page)
    expect(page.locator("#sound-toggle")).to_have_text("Sound: on")


def test_the_shop_says_boosters_pay_online_and_asks_before_spending(new_page):
    page = new_page()
    signup(page)
    page.goto("/shop/")
    expect(page.locator(".shop-note")).to_contain_text("Only online play earns")
    asked: list[str] = []

    def dismiss(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    before = page.locator("main").inner_text()
    page.locator("form.buy-form button[type=submit]:not([disabled])").first.click()
    assert asked and "coins" in asked[0]
    expect(page.locator(".messages")).to_have_count(0)
    assert page.locator("main").inner_text() == before
    both_sizes(page, "shop-note")


def test_reduced_motion_turns_the_animations_off(new_page):
    page = new_page()
    page.emulate_media(reduced_motion="reduce")
    signup(page)
    # The computer answers after a human's pace: its answer (a draw, a pass)
    # would otherwise redraw the board before the arrival is read.
    start_practice(page, "draw", levels=("easy",), speed="normal")
    play_until(page, "f => f.view.layout.root !== null")
    page.wait_for_selector("#board .tile.newest")
    names = page.evaluate(
        "() => [...document.querySelectorAll('#board .tile, .hand .tile')]"
        ".map(t => getComputedStyle(t).animationName)"
    )
    assert names and set(names) == {"none"}, names
    page.emulate_media(reduced_motion="no-preference")
    f = play_until(page, "f => f.view.legal.some(a => a.type === 'play')")
    seq = f["seq"]
    act_once(page)
    page.wait_for_function(f"() => window.dominoTable.ui.frame.seq > {seq}")
    arrived = page.evaluate(
        "() => [...document.querySelectorAll('#board .tile.arrive')]"
        ".map(t => getComputedStyle(t).animationName)"
    )
    assert arrived == ["tile-arrive"], arrived
