"""Friend rooms in two (then three) browsers: invite by name, accept from the toast,
start with a computer in the empty seat, play moves both see; join by link after
signing up."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    PASSWORD,
    act_once,
    create_room,
    frame,
    signup,
    wait_ready,
)

pytestmark = pytest.mark.e2e


def seq(page: Page) -> int:
    return int(frame(page)["seq"])


def test_invite_accept_start_with_a_computer_and_play(new_page):
    alice, bob = new_page(), new_page()
    alice_name = signup(alice, "alice")
    bob_name = signup(bob, "bob")
    bob.goto("/")
    create_room(alice)
    alice.fill("#invite-name", bob_name[:4])
    expect(alice.locator(f'#invite-names option[value="{bob_name}"]')).to_have_count(1)
    alice.fill("#invite-name", bob_name)
    alice.get_by_role("button", name="Invite", exact=True).click()
    expect(alice.locator(".messages")).to_contain_text("Invitation sent.")
    expect(alice.locator("#room-invited")).to_contain_text(bob_name)

    toast = bob.locator("#invitation-toasts .toast")
    expect(toast).to_contain_text(alice_name)
    expect(bob.locator("#invitation-count")).to_have_text("1")
    toast.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(bob.locator("#room-seats")).to_contain_text(bob_name)
    expect(alice.locator("#room-seats")).to_contain_text(bob_name)  # pushed

    alice.get_by_role("button", name="Start now").click()
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    bob.wait_for_url(re.compile(r"/tables/\d+/$"))  # taken to the table
    assert alice.url == bob.url
    wait_ready(alice)
    wait_ready(bob)
    expect(alice.locator("#seats .seat")).to_have_count(3)
    expect(alice.locator("#seats")).to_contain_text("computer")
    expect(bob.locator("#seats")).to_contain_text(alice_name)

    moves = 0
    deadline = time.monotonic() + 90
    while moves < 4 and time.monotonic() < deadline:
        for me, other in ((alice, bob), (bob, alice)):
            view = frame(me)["view"]
            if view["phase"] == "match_over" or not view["legal"]:
                continue
            if act_once(me):
                moves += 1
                after = seq(me)
                other.wait_for_function(
                    f"() => window.dominoTable.ui.frame.seq >= {after}"
                )
        time.sleep(0.2)
    assert moves >= 4, "the two players did not get to move"
    # The same numbered state shows the same layout on both pages (the computer
    # may move between two reads, so they are compared at one number).
    for _ in range(50):
        mine, theirs = frame(alice), frame(bob)
        if mine["seq"] == theirs["seq"]:
            break
        time.sleep(0.1)
    assert mine["seq"] == theirs["seq"], "the two pages never showed one state"
    assert mine["view"]["layout"] == theirs["view"]["layout"]


def test_a_stranger_joins_through_the_link_after_signing_up(new_page):
    host = new_page()
    signup(host, "host")
    create_room(host, seats=2)
    link = host.locator("#share-link").input_value()
    stranger = new_page()
    stranger.goto(link)
    expect(stranger.locator("#join-invite")).to_be_visible()  # who invites, to what
    # The page's own sign-up link (the header's one does not carry the way back).
    stranger.locator('main a[href*="signup"][href*="next="]').click()
    stranger.wait_for_url(re.compile(r"/accounts/signup/"))
    name = f"friend{int(time.time() * 1000) % 10_000_000}"
    stranger.fill("input[name=username]", name)
    stranger.fill("input[name=email]", f"{name}@example.com")
    stranger.fill("input[name=password1]", PASSWORD)
    stranger.fill("input[name=password2]", PASSWORD)
    stranger.locator("form button[type=submit]").last.click()
    stranger.wait_for_url(re.compile(r"/rooms/join/"))
    stranger.get_by_role("button", name="Join the game").click()
    stranger.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(stranger.locator("#room-seats")).to_contain_text(name)
    expect(host.locator("#room-seats")).to_contain_text(name)
