"""The table's info line shows the stock only where a player can draw from it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup, start_practice

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
