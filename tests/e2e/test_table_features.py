"""Claims and Muggins, the cross and the spider, keyboard play, reloads, the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    act_once,
    frame,
    label,
    record_state_frames,
    screenshot,
    signup,
    start_practice,
    wait_for_me,
    wait_ready,
    wait_seq_after,
)

pytestmark = pytest.mark.e2e


# A Muggins needs ``easy`` to forget a claim (30% of its claims) and this seat to
# be offered it before the match ends: about one 250-point match in twenty ends
# without one (51 of 1,000 in an engine simulation of this test's play), so the
# test plays a new match then, up to MATCHES in all (all four: about 1 in 150,000).
MATCHES = 4


def test_all_fives_claim_and_muggins(new_page):
    page = new_page()
    received = record_state_frames(page)
    signup(page)
    start_practice(page, "all_fives", levels=("easy",), target=250)
    claimed = mugged = False
    matches = 1
    for _ in range(400 * MATCHES):
        f = wait_for_me(page)
        view = f["view"]
        if view["phase"] == "match_over":
            assert matches < MATCHES, f"{matches} matches ended before both were seen"
            matches += 1
            start_practice(page, "all_fives", levels=("easy",), target=250)
            continue
        types = {a["type"] for a in view["legal"]}
        if "claim" in types or "muggins" in types:
            points = view["claim"]["points"]
            # From the frame that offered it, not the page, which may still be
            # showing an earlier frame.
            before = view["scores"][view["side_of"][f["you"]]]
            kind = "muggins" if "muggins" in types else "claim"
            button = page.locator("#main-action")
            expect(button).to_have_text(
                f"Muggins {points}" if kind == "muggins" else f"Claim {points}"
            )
            if kind == "muggins":
                screenshot(page, "all-fives-muggins")
            button.click()
            wait_seq_after(page, f["seq"])
            # The bot answers at once, so the page may already show a later frame:
            # check the claim's own frame (where a claim that ends the hand also
            # brings the hand's bonus, in its hand_over entry), then that the page
            # shows the score of the frame it renders.
            reply = next(
                r
                for r in received
                if r["table"]["id"] == f["table"]["id"] and r["seq"] > f["seq"]
            )
            history = reply["view"]["history"]
            mine = view["side_of"][f["you"]]
            at = max(
                i
                for i, e in enumerate(history)
                if e["type"] in ("claimed", "muggins") and e["seat"] == f["you"]
            )
            assert history[at]["points"] == points
            bonus = 0
            for e in history[at + 1 :]:
                if e["type"] == "scored" and view["side_of"][e["seat"]] == mine:
                    bonus += e["points"]
                elif e["type"] == "hand_over":
                    bonus += e["result"]["points"][mine]
            assert reply["view"]["scores"][mine] == before + points + bonus
            settled = wait_for_me(page)
            expect(page.locator("#seats .seat.you .seat-score")).to_have_text(
                str(settled["view"]["scores"][settled["you"]])
            )
            claimed |= kind == "claim"
            mugged |= kind == "muggins"
            if claimed and mugged:
                break
            continue
        if "play" in types and not claimed:
            # Each end shows what a play there would score once a tile is chosen.
            scoring = [
                a for a in view["legal"] if a["type"] == "play" and a["points"] > 0
            ]
            if scoring:
                tile = scoring[0]["tile"]
                best = max(
                    a["points"]
                    for a in view["legal"]
                    if a["type"] == "play" and sorted(a["tile"]) == sorted(tile)
                )
                button = page.get_by_role("button", name=label(tile), exact=True)
                expect(button.locator(".points")).to_have_text(f"+{best}")
        act_once(page, prefer="points")
    assert claimed and mugged


def test_cross_shows_four_arms_from_the_opening_double(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "cross", seats=4, levels=("easy", "easy", "easy"))
    page.wait_for_function(
        "() => { const v = window.dominoTable.ui.frame.view;"
        " return v.layout.root !== null || v.legal.length > 0; }"
    )
    if frame(page)["view"]["layout"]["root"] is None:
        act_once(page)  # we hold the opening double
    page.wait_for_function(
        "() => window.dominoTable.ui.frame.view.layout.root !== null"
    )
    root = frame(page)["view"]["layout"]["root"]
    arms = page.locator("#board .arm")
    expect(arms).to_have_count(4)
    for name in ("North", "East", "South", "West"):
        expect(
            page.get_by_role("group", name=f"{name} arm from {label(root)}")
        ).to_be_visible()
    expect(page.locator("#seats .seat")).to_have_count(4)
    screenshot(page, "cross-four-arms")


def test_spider_offers_closing_a_double(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "spider", levels=("easy",), target=120)
    for _ in range(400):
        f = wait_for_me(page)
        view = f["view"]
        assert view["phase"] != "match_over", "no chance to close a double came up"
        if view["phase"] == "close":
            close = page.get_by_role("button", name=re.compile(r"^Close \d"))
            expect(close.first).to_be_visible()
            expect(page.locator("#main-action")).to_have_text("Continue")
            screenshot(page, "spider-close")
            ends = next(a for a in view["legal"] if a["type"] == "close")["ends"]
            close.first.click()
            wait_seq_after(page, f["seq"])
            closed = [
                e
                for e in frame(page)["view"]["layout"]["ends"]
                if e["state"] == "closed"
            ]
            assert {e["id"] for e in closed} >= set(ends)
            expect(page.locator("#board .end.closed")).to_have_count(len(closed))
            return
        act_once(page, prefer="doubles")
    pytest.fail("no chance to close a double came up")


def _focused_key(page: Page) -> str:
    return page.evaluate("() => document.activeElement?.dataset?.key || ''")


def _tab_to(page: Page, key: str) -> None:
    for _ in range(80):
        if _focused_key(page) == key:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {key}")


def test_keyboard_only_hand(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", levels=("easy",))
    checked_focus = False
    for _ in range(200):
        f = wait_for_me(page)
        view = f["view"]
        if view["phase"] in ("hand_over", "match_over"):
            break
        legal = view["legal"]
        plays = [a for a in legal if a["type"] == "play"]
        if plays:
            play = plays[0]
            key = "tile:" + "-".join(map(str, sorted(play["tile"])))
            _tab_to(page, key)
            if not checked_focus:
                outline = page.evaluate(
                    "() => getComputedStyle(document.activeElement).outlineStyle"
                )
                assert outline not in ("", "none"), "focus must be visible"
                checked_focus = True
            page.keyboard.press("Enter")
            same = [a for a in plays if sorted(a["tile"]) == sorted(play["tile"])]
            if len(same) > 1:
                for _ in range(6):
                    if _focused_key(page) == f"end:{play['end']}":
                        break
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
        else:
            _tab_to(page, "main")
            page.keyboard.press("Enter")
        wait_seq_after(page, f["seq"])
    else:
        pytest.fail("the hand did not end")
    expect(page.locator("#result")).to_be_visible()
    assert checked_focus


def test_reload_and_reconnect_bring_back_the_same_state(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", levels=("easy",))
    for _ in range(3):
        act_once(page)
    wait_for_me(page)
    before = frame(page)
    page.reload()
    wait_ready(page)
    after = frame(page)
    # The reload's disconnect and reconnect change the seats (new seqs), not the game.
    assert before["seq"] <= after["seq"] <= before["seq"] + 2
    for key in ("hand", "layout", "scores", "legal", "hand_counts"):
        assert after["view"][key] == before["view"][key], key
    expect(page.locator(".hand .tile-btn")).to_have_count(len(before["view"]["hand"]))
    # A dropped socket shows "reconnecting…" and comes back by itself.
    page.evaluate("() => window.dominoTable.socket.drop()")
    expect(page.locator("#conn")).to_have_text("reconnecting…")
    expect(page.locator("#conn")).to_be_hidden(timeout=10_000)
    act_once(page)


def test_phone_viewport_has_no_page_scrolling_sideways(new_page):
    page = new_page(390, 844)
    signup(page)
    start_practice(page, "draw", levels=("easy",))
    for step in range(40):
        f = wait_for_me(page)
        if f["view"]["phase"] != "play":
            break
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways ({width}px)"
        for box in page.locator(".hand .tile-btn, #board .end, #main-action").all():
            if not box.is_visible():
                continue
            rect = box.bounding_box()
            assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 390, rect
        if step == 6:
            screenshot(page, "phone-mid-hand")
        act_once(page)
    screenshot(page, "phone-later")


def test_drag_and_drop_plays_a_tile(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", levels=("easy",))
    for _ in range(60):
        f = wait_for_me(page)
        plays = [
            a for a in f["view"]["legal"] if a["type"] == "play" and a["end"] != "root"
        ]
        if not plays:
            act_once(page)
            continue
        play = plays[0]
        tile = page.get_by_role("button", name=label(play["tile"]), exact=True)
        end = page.locator(f'.board .end[data-end="{play["end"]}"]')
        tile.drag_to(end)
        wait_seq_after(page, f["seq"])
        after = frame(page)
        assert sorted(play["tile"]) not in [sorted(t) for t in after["view"]["hand"]]
        return
    raise AssertionError("never had a tile to drag onto an end")


def test_the_sound_line_keeps_no_separator_once_leave_is_gone(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", levels=("easy",))
    line = page.locator(".leave-line")
    expect(line).to_have_text("Sound: on · Leave this game")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#leave").click()
    expect(page.locator("#leave")).to_be_hidden()
    assert line.inner_text().strip() == "Sound: on"
