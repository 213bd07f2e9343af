"""The review of a hand in the browser: a practice player finishes a hand,
follows "Review this hand" from the result, sees the review being computed, then
the summary (accuracy, luck meter), the decisions with their options and the
face-up line; the replay shows the review's verdict beside the move; and the page
fits a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    act_once,
    frame,
    screenshot,
    signup,
    start_practice,
    wait_for_me,
    wait_ready,
)
from tests.support.pages import in_language

pytestmark = pytest.mark.e2e

PHONE = (390, 844)


def choose_language(page, code: str) -> None:
    page.goto("/")
    page.locator("footer select[name=language]").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


def test_a_player_reviews_a_finished_practice_hand(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "block", seats=2, levels=("easy",), target=100)
    table_id = frame(page)["table"]["id"]
    for _ in range(40):
        # At the hand's end the player's decision is "Next hand": stop there.
        if wait_for_me(page)["view"]["phase"] in ("hand_over", "match_over"):
            break
        act_once(page)
    assert frame(page)["view"]["phase"] in ("hand_over", "match_over")
    assert frame(page)["view"]["hand_no"] == 1

    link = page.locator("#result [data-review-hand]")
    expect(link).to_have_text("Review this hand")
    link.click()
    page.wait_for_url(f"**/tables/{table_id}/review/1/")
    # Opened for the first time: queued, the progress shows, then the review.
    expect(page.locator("h1")).to_contain_text("review of hand 1")
    expect(page.locator(".review-caveat")).to_contain_text("knows what no player knew")
    progress = page.locator("#review-progress")
    summary = page.locator(".review-seats")
    expect(progress.or_(summary).first).to_be_visible()
    expect(summary).to_be_visible(timeout=60_000)
    expect(progress).to_be_hidden()
    mine = page.locator(".review-seat.mine")
    expect(mine).to_have_count(1)
    # An accuracy over the decisions it could judge, or none when none could be.
    expect(mine.locator(".review-accuracy")).to_have_text(
        re.compile(r"Accuracy \d+ % · \d+ of \d+ decisions? judged|No accuracy: ")
    )
    expect(mine.locator("meter.luck-meter")).to_have_count(1)
    expect(mine.locator(".review-luck p")).not_to_be_empty()
    decisions = page.locator(".review-seat-moves[open] .review-decision")
    expect(decisions.first).to_be_visible()
    expect(decisions.first.locator(".review-options tbody tr").first).to_be_visible()
    expect(page.locator(".review-line li").first).to_contain_text("Perfect play")
    screenshot(page, "review-desktop")

    # The JSON the replay reads says it is done, with a verdict per decision.
    body = page.request.get(f"/tables/{table_id}/review/1.json").json()
    assert body["status"] == "done" and body["moves"]

    # A phone: nothing scrolls sideways.
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.reload()
    expect(summary).to_be_visible()
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE[0], f"the review scrolls sideways on a phone ({wide}px)"
    screenshot(page, "review-phone")

    # In Italian every number is written the Italian way: "+3,5", "−12,0".
    page.set_viewport_size({"width": 1280, "height": 800})
    choose_language(page, "it")
    page.goto(f"/tables/{table_id}/review/1/")
    expect(mine.locator(".review-luck strong")).to_have_text(
        re.compile(r"^([+\u2212]?\d+,\d)$")
    )
    for value in page.locator(".review-options td:last-child").all_text_contents():
        assert re.fullmatch(r"[+\u2212]?\d+,\d", value), value
    choose_language(page, "en")

    # Once the table has ended, the replay shows the review's verdict beside a
    # reviewed move, and its links lead back to the review.
    seq = body["moves"][0]["seq"]
    page.goto(f"/tables/{table_id}/")
    wait_ready(page)  # the leave goes over the table's socket
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#leave").click()
    expect(page.locator("#status")).to_contain_text("abandoned")
    page.goto(f"/tables/{table_id}/replay/#seq-{seq}")
    panel = page.locator("#replay-review")
    expect(panel).to_contain_text("Chose to ")
    expect(panel.get_by_role("link", name="Open this hand's review")).to_have_attribute(
        "href", f"/tables/{table_id}/review/1/"
    )

    # In Italian the replay's review panel writes points as the review page does:
    # the module it loads formats them in the page's language.
    choose_language(page, "it")
    replay = in_language(f"/tables/{table_id}/replay/", "it")
    page.goto(f"{replay}#seq-{seq}")
    expect(panel.get_by_role("link")).to_have_attribute(
        "href", f"/tables/{table_id}/review/1/"
    )
    written = page.evaluate(
        """async () => {
          const url = performance.getEntriesByType("resource")
            .map((entry) => entry.name)
            .find((name) => /\\/js\\/review\\/numbers[.\\w]*\\.js$/.test(name));
          const { formatPoints } = await import(url);
          return [formatPoints(-41.6), formatPoints(40.2), formatPoints(21.25)];
        }"""
    )
    assert written == ["\u221241,6", "40,2", "21,3"]
    choose_language(page, "en")
