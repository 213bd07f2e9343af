"""The table's info line shows the stock only where a player can draw from it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import act_once, frame, screenshot, signup, start_practice

pytestmark = pytest.mark.e2e


def test_block_shows_no_stock_and_draw_does(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "block", seats=2, levels=("easy",))
    info = page.locator("#info")
    expect(info).to_contain_text("Hand 1")
    expect(info).not_to_contain_text("Stock")
    screenshot(page, "block-2-info")
    start_practice(page, "draw", seats=2, levels=("easy",))
    expect(page.locator("#info")).to_contain_text("Stock")


BOXES = """() => {
  const box = (selector) => {
    const node = document.querySelector(selector);
    if (!node) return null;
    const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  return { centre: box('.spinner-centre'), west: box('.arm-w'), east: box('.arm-e'),
           north: box('.arm-n'), south: box('.arm-s') };
}"""


def test_fives_spinner_is_a_cross_on_a_phone(new_page):
    """West and east sit beside the spinner, north above and south below it, on a
    phone too; no end button wraps alone onto a row of its own."""
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    signup(page)
    start_practice(page, "fives", seats=2, levels=("easy",))
    for _ in range(200):
        view = frame(page)["view"]
        spun = view["phase"] == "play" and view["layout"].get("spinner")
        west_tiles = page.locator(".board.with-spinner .arm-w .tile").count()
        # On the player's own turn the board holds still (the computer waits).
        if spun and west_tiles >= 2 and view["legal"]:
            break
        if view["phase"] == "match_over":
            pytest.fail("the match ended before the spinner had a west arm")
        act_once(page)
    else:
        pytest.fail("no spinner with a west arm came up")
    boxes = page.evaluate(BOXES)  # all measured in one go, from one rendering
    centre, west, east = boxes["centre"], boxes["west"], boxes["east"]
    north, south = boxes["north"], boxes["south"]
    middle = centre["y"] + centre["height"] / 2
    assert west["x"] + west["width"] <= centre["x"] + 1
    assert east["x"] >= centre["x"] + centre["width"] - 1
    for side in (west, east):
        assert side["y"] <= middle <= side["y"] + side["height"]
    assert north["y"] + north["height"] <= centre["y"] + 1
    assert south["y"] >= centre["y"] + centre["height"] - 1
    lonely = page.evaluate(
        """() => [...document.querySelectorAll('.arm-tiles')].filter((box) => {
            const rows = box.querySelectorAll('.snake-row');
            const last = rows[rows.length - 1];
            return rows.length > 1 && last.children.length === 1
              && last.firstElementChild.classList.contains('end');
        }).length"""
    )
    assert lonely == 0
    screenshot(page, "fives-spinner-phone")
