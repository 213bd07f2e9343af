"""Browser: two people sit at a 100-coin stake table, play it to the end by clicking,
and the winner's wallet shows the payout linked to the table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    act_once,
    frame,
    main_button,
    screenshot,
    signup,
    wait_ready,
)

pytestmark = pytest.mark.e2e

GROUP = '.stake-group[data-stake="100"][data-shape="block-2"]'


def my_turn(page: Page) -> bool:
    f = frame(page)
    view = f["view"]
    return bool(view and view["legal"]) and f["table"]["status"] == "playing"


def over(page: Page) -> bool:
    f = frame(page)
    return f["table"]["status"] != "playing"


def test_two_players_play_a_stake_table_and_the_winner_sees_the_payout(new_page):
    ana, ben = new_page(), new_page()
    names = {signup(ana, "ana"): ana, signup(ben, "ben"): ben}
    ana.goto("/play/stakes/")
    ana.locator(GROUP).get_by_role("button", name="Quick seat").click()
    expect(ana.locator("#stakes-you")).to_contain_text("1 of 2 seats taken")
    screenshot(ana, "stakes-lobby-seated")
    ben.goto("/play/stakes/")
    ben.locator(GROUP).get_by_role("button", name="Sit down").first.click()
    # The table starts with its last seat: both lobbies go to it.
    for page in (ana, ben):
        page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=20_000)
        wait_ready(page)
    table_id = frame(ana)["table"]["id"]
    for _ in range(800):
        if over(ana) and over(ben):
            break
        for page in (ana, ben):
            if my_turn(page):
                act_once(page)
        ana.wait_for_timeout(50)
    else:
        pytest.fail("the stake match did not end")
    f = frame(ana)
    assert f["table"]["status"] == "finished"
    winner_name = next(s["name"] for s in f["seats"] if s["place"] == 1)
    winner = names[winner_name]
    loser = ben if winner is ana else ana
    # The result screen: the rating change and who received what from the pot.
    for page in (winner, loser):
        main_button(page).click()
        expect(page.locator("#match-result")).to_be_visible()
        expect(page.locator("#match-result .rating-change")).to_contain_text(
            re.compile(r"Your rating: \d[\d,]*\? \((\+\d+|-\d+|±0)\)")
        )
    expect(winner.locator("#match-result .pot-result")).to_contain_text(
        "You: won 200 from the pot"
    )
    expect(loser.locator("#match-result .pot-result")).to_contain_text(
        "You: nothing from the pot"
    )
    screenshot(winner, "stakes-result-pot")
    winner.goto("/wallet/")
    payout = winner.locator("tr", has_text="Payout")
    expect(payout).to_contain_text("200")
    expect(payout.locator(f'a[href="/tables/{table_id}/"]')).to_be_visible()
    screenshot(winner, "stakes-wallet-payout")
    winner.goto("/play/stakes/")
    expect(winner.locator(f'[data-result="{table_id}"]')).to_contain_text(
        "won 200 from the pot"
    )
