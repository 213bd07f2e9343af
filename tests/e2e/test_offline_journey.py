"""The offline practice game as a player meets it: open /play/offline/ once online,
go offline, reload, play a whole match against the medium computer (Fives with its
spinner; Block with four seats), reload mid-hand and go on where it was; back
online, the finished game is sent and lands in the player's practice record."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import act_once, frame, signup

pytestmark = pytest.mark.e2e

ENGINE_READY = "() => !document.getElementById('offline-start').disabled"
OFFLINE_READY = """async () => {
  await window.dominoOffline.engine().ready;
  if (navigator.serviceWorker) await navigator.serviceWorker.ready;
  return true;
}"""


def start(page: Page, variant: str, seats: int, levels: list[str]) -> None:
    page.wait_for_function(ENGINE_READY, timeout=60_000)
    page.select_option("select[name=variant]", variant)
    page.select_option("select[name=seats]", str(seats))
    page.select_option("select[name=target]", "50")
    for i, level in enumerate(levels, start=1):
        page.select_option(f"select[name=bot_{i}]", level)
    page.select_option("select[name=bot_speed]", "instant")
    page.click("#offline-start")
    expect(page.locator("#table-app")).to_be_visible()
    page.wait_for_function("() => !!window.dominoTable.ui.frame")


def play_to_the_end(page: Page, *, reload_after: int) -> None:
    """Play by clicking until the match is over; once, after ``reload_after`` of
    the person's moves within a hand, reload the page and check it resumed."""
    reloaded = False
    for moves in range(1, 3000):
        if not act_once(page):
            break
        f = frame(page)
        mid_hand = f["view"]["phase"] == "play" and f["view"]["history"]
        if not reloaded and moves >= reload_after and mid_hand:
            before = json.loads(
                page.evaluate("() => window.dominoOffline.state().game")
            )
            page.reload()
            page.wait_for_function(
                "() => window.dominoOffline.state() !== null", timeout=60_000
            )
            after = json.loads(page.evaluate("() => window.dominoOffline.state().game"))
            assert after["log"][: len(before["log"])] == before["log"]
            assert after["seed"] == before["seed"]
            expect(page.locator("#table-app")).to_be_visible()
            reloaded = True
    assert reloaded, "the match ended before the page was reloaded mid-hand"
    assert frame(page)["view"]["phase"] == "match_over"


@pytest.mark.parametrize(
    ("variant", "seats", "levels"),
    [("fives", 2, ["medium"]), ("block", 4, ["medium", "medium", "medium"])],
)
def test_a_whole_match_offline_resumed_and_recorded_back_online(
    new_page, variant: str, seats: int, levels: list[str]
) -> None:
    page = new_page()
    signup(page, "offline")
    page.goto("/play/offline/")
    page.evaluate(OFFLINE_READY)
    page.context.set_offline(True)
    page.reload()
    start(page, variant, seats, levels)
    play_to_the_end(page, reload_after=3)
    page.locator("#main-action").click()  # "Finish": the match's result
    result = page.locator("#match-result")
    expect(result).to_be_visible()
    expect(result.locator("[data-upload]")).to_contain_text("back online")
    page.context.set_offline(False)
    page.evaluate("() => window.dominoOffline.flush()")
    expect(result.locator("[data-upload]")).to_contain_text(
        "in your practice record", timeout=30_000
    )
    history = result.locator("[data-upload] a").get_attribute("href")
    assert history
    reply = page.request.get(history)
    assert reply.status == 200
    # Sent once: a second flush finds nothing left to send.
    page.evaluate("() => window.dominoOffline.flush()")
    page.goto("/play/")
    row = page.locator("tr[data-level=medium]")
    expect(row.locator("td.played")).to_have_text("1")
    expect(row.locator("td.offline")).to_have_text("1")
