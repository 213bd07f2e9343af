"""Two people become friends in Chromium: one asks by name, the other answers from
the toast, each sees the other come online on the friends page, and one click
opens a room with the friend invited."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup

pytestmark = pytest.mark.e2e


def test_two_friends_find_each_other_and_meet_in_a_room(new_page):
    ana = new_page()
    ana_name = signup(ana, "ana")
    ben = new_page()
    ben_name = signup(ben, "ben")

    ana.goto("/friends/")
    ana.fill("#friend-name", ben_name)
    ana.get_by_role("button", name="Send a friend request").click()
    expect(ana.locator(".messages")).to_contain_text("Friend request sent.")
    # Ben, on any page, is told at once and answers from the toast.
    toast = ben.locator("#invitation-toasts .toast")
    expect(toast).to_contain_text(f"{ana_name} wants to be your friend.")
    expect(ben.locator("#friend-request-count")).to_have_text("1")
    toast.get_by_role("link", name="Answer").click()
    ben.get_by_role("button", name="Accept").click()
    expect(ben.locator(f'[data-friend="{ana_name}"]')).to_contain_text("online")

    # Ana's list shows Ben; when Ben's pages close, he goes offline there, live.
    ana.goto("/friends/")
    row = ana.locator(f'[data-friend="{ben_name}"]')
    expect(row).to_contain_text("online")
    ben.goto("about:blank")
    expect(row.locator("[data-state]")).to_have_text("offline", timeout=15_000)
    ben.goto("/")
    expect(row.locator("[data-state]")).to_have_text("online", timeout=15_000)
    screenshot(ana, "friends-list")

    # One click: a room with Ben invited, and his toast to join.
    row.get_by_role("button", name="Invite to a room").click()
    expect(ana).to_have_url(re.compile(r"/rooms/\d+/$"))
    expect(ben.locator("#invitation-toasts")).to_contain_text(
        f"Room invitation from {ana_name}"
    )
