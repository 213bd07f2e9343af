"""Browser: four people enter a 100-coin sit-and-go from the tournaments page, it
starts when full, they play its one table to the end by clicking, and the two
winners' wallets show the whole pot (260 + 140)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import act_once, frame, screenshot, signup, wait_ready

pytestmark = pytest.mark.e2e

KIND = '[data-sitgo-kind="4-100"]'


def my_turn(page: Page) -> bool:
    f = frame(page)
    view = f["view"]
    return bool(view and view["legal"]) and f["table"]["status"] == "playing"


def over(page: Page) -> bool:
    return frame(page)["table"]["status"] != "playing"


def test_four_people_play_a_sit_and_go_and_the_winners_share_the_whole_pot(
    new_page,
):
    pages = [new_page() for _ in range(4)]
    names = {signup(page, f"sg{i}"): page for i, page in enumerate(pages)}
    for count, page in enumerate(pages, start=1):
        page.goto("/tournaments/")
        row = page.locator(KIND)
        expect(row).to_contain_text("#1: 65% (260)")
        expect(row).to_contain_text("#2: 35% (140)")
        row.get_by_role("button", name="Enter for 100 coins").click()
        page.wait_for_url(re.compile(r"/tournaments/sitgo/\d+/$"))
        if count < 4:
            expect(page.locator("[data-sitgo-taken]")).to_contain_text(f"{count} of 4")
    screenshot(pages[0], "sitgo-entered")
    # The last entry starts it: every page (polling) offers the table.
    for page in pages:
        link = page.locator("[data-current-table]")
        expect(link).to_be_visible(timeout=20_000)
        link.click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
    for page in pages:
        wait_ready(page)
    table_ids = {frame(page)["table"]["id"] for page in pages}
    assert len(table_ids) == 1
    for _ in range(3000):
        if all(over(page) for page in pages):
            break
        for page in pages:
            if my_turn(page):
                act_once(page)
        pages[0].wait_for_timeout(30)
    else:
        pytest.fail("the sit-and-go table did not end")
    winner_name = next(s["name"] for s in frame(pages[0])["seats"] if s["place"] == 1)
    # Four people: the chat is there, whole. The winner's result screen tells
    # the event's prize, not only the table's reward, and leads to the standings.
    winner_page = names[winner_name]
    expect(winner_page.locator("#chat")).to_be_visible()
    expect(winner_page.locator("#chat")).not_to_contain_text("null")
    expect(winner_page.locator("#main-action")).to_have_text("Finish")
    winner_page.locator("#main-action").click()
    standing = winner_page.locator('#match-result [data-event-standing="finished"]')
    expect(standing).to_contain_text("The sit-and-go is over. Your final place: 1.")
    expect(standing.locator("[data-event-prize]")).to_have_text("Your prize: 260 coins")
    expect(standing.locator("a[data-standings]")).to_have_attribute(
        "href", re.compile(r"^/tournaments/sitgo/\d+/$")
    )
    screenshot(winner_page, "sitgo-table-result")
    # The match's end leads back to the event page, which shows the places and
    # payouts once the finish is applied (from a page whose result screen is still
    # unread: the winner's was opened above).
    event = next(page for page in pages if page is not winner_page)
    expect(event.locator("#main-action")).to_have_text("Finish")
    event.locator("#main-action").click()
    back = event.locator("#match-result [data-event]")
    expect(back).to_have_text("Back to the sit-and-go")
    back.click()
    event.wait_for_url(re.compile(r"/tournaments/sitgo/\d+/$"))
    event.reload()
    expect(event.locator("[data-sitgo-state]")).to_contain_text("Finished")
    expect(event.locator("[data-payout]")).to_have_count(2)
    expect(event.locator(".sitgo-entrants")).to_contain_text("won 260 coins")
    expect(event.locator(".sitgo-entrants")).to_contain_text("won 140 coins")
    screenshot(event, "sitgo-finished")
    entrants = event.locator(".sitgo-entrants li")
    first = entrants.filter(has_text="won 260 coins").get_attribute("data-entrant")
    second = entrants.filter(has_text="won 140 coins").get_attribute("data-entrant")
    assert first == winner_name and second in names and second != first
    for name, amount in ((first, "260"), (second, "140")):
        winner = names[str(name)]
        winner.goto("/wallet/")
        payout = winner.locator("tr", has_text="Payout")
        expect(payout).to_contain_text(amount)
        expect(payout.locator('a[href^="/tournaments/sitgo/"]')).to_be_visible()
    screenshot(names[str(first)], "sitgo-wallet-payout")
