"""Arabic and Hebrew read right to left: on a phone (390 px) and a desktop
(1280 px) the nav, lobby, table, result screen, league, tournaments and review
are mirrored (the page's direction is right to left and its headings and nav
start on the right) and fit without scrolling sideways, while the board keeps its
geometry (a line of tiles is not mirrored). A whole practice hand is played in
each language, with nothing but the page's controls. Screenshots of every page
go to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    frame,
    main_button,
    screenshot,
    signup,
    start_practice,
    wait_for_me,
    wait_seq_after,
)

pytestmark = pytest.mark.e2e

WIDTHS = (1280, 390)

# Where the page's first heading and its text sit, and what scrolls sideways.
LAYOUT = """() => {
  const main = document.querySelector("main");
  const heading = main.querySelector("h1, h2");
  const range = document.createRange();
  range.selectNodeContents(heading);
  const text = range.getBoundingClientRect();
  const box = heading.getBoundingClientRect();
  const board = document.querySelector(".board");
  return {
    dir: document.documentElement.dir,
    direction: getComputedStyle(main).direction,
    textRight: text.right, textLeft: text.left, boxRight: box.right, boxLeft: box.left,
    page: document.scrollingElement.scrollWidth,
    board: board ? getComputedStyle(board).direction : null,
  };
}"""


def choose_language(page: Page, code: str) -> None:
    page.goto("/")
    page.locator("footer select[name=language]").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


def act(page: Page) -> bool:
    """One decision through the page's controls, in any language: the main
    button, or a tile of the hand (and the end it goes to). False at the end."""
    f = wait_for_me(page)
    view = f["view"]
    if (
        view["phase"] in ("hand_over", "match_over")
        or f["table"]["status"] != "playing"
    ):
        return False
    seq = f["seq"]
    plays = [a for a in view["legal"] if a["type"] == "play"]
    if plays:
        play = plays[0]
        low, high = sorted(play["tile"])
        page.locator(f'.hand .tile-btn[data-tile="{low}-{high}"]').click()
        if len([a for a in plays if sorted(a["tile"]) == [low, high]]) > 1:
            page.locator(f'.board .end[data-end="{play["end"]}"]').click()
    else:
        main_button(page).click()
    wait_seq_after(page, seq)
    return True


def check_mirrored(page: Page, what: str, width: int) -> None:
    found = page.evaluate(LAYOUT)
    assert found["dir"] == "rtl" and found["direction"] == "rtl", (what, found)
    # The heading's text starts on the right of its box, as right-to-left text does.
    assert abs(found["textRight"] - found["boxRight"]) <= 2, (what, found)
    if (
        found["textRight"] - found["textLeft"]
        < found["boxRight"] - found["boxLeft"] - 20
    ):
        assert found["textLeft"] > found["boxLeft"] + 10, (what, found)
    assert found["page"] <= width, f"{what} scrolls sideways at {width} px: {found}"
    if found["board"] is not None:
        assert found["board"] == "ltr", f"{what}: the board is mirrored"


@pytest.mark.parametrize("language", ["ar", "he"])
def test_a_right_to_left_reader_plays_a_hand_and_reads_every_page(new_page, language):
    page = new_page(width=WIDTHS[0])
    signup(page, "rtl")
    start_practice(page, "block", seats=2, levels=("easy",), target=100)
    table_id = frame(page)["table"]["id"]
    choose_language(page, language)
    page.goto(f"/tables/{table_id}/")
    expect(main_button(page)).to_be_visible()
    for _ in range(60):
        if not act(page):
            break
    assert frame(page)["view"]["phase"] in ("hand_over", "match_over")
    result = page.locator("#result")
    expect(result).to_be_visible()
    check_mirrored(page, "the result screen", WIDTHS[0])
    screenshot(page, f"rtl-{language}-result-{WIDTHS[0]}")
    # The nav: the site's name on the right, the links to its left.
    brand = page.locator(".brand").bounding_box()
    nav = page.locator(".nav").bounding_box()
    assert brand and nav and brand["x"] > nav["x"], (brand, nav)

    pages = {
        "lobby": "/play/online/",
        "table": f"/tables/{table_id}/",
        "league": "/league/",
        "tournaments": "/tournaments/",
        "review": f"/tables/{table_id}/review/1/",
    }
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
        for name, path in pages.items():
            page.goto(path)
            if name == "review":
                expect(page.locator(".review-seats")).to_be_visible(timeout=60_000)
            if name == "table":
                expect(main_button(page)).to_be_visible()
            check_mirrored(page, name, width)
            screenshot(page, f"rtl-{language}-{name}-{width}")
