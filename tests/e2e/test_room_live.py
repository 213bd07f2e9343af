"""Friend rooms in real browsers: joins and leaves pushed over the room's socket
(no reload, no 2 s poll), a removed player told and kept out, the signed-out link,
a full room's page, Decline and block confirmed and one's own block list.
Screenshots (desktop and phone) go to test-artifacts/."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import PASSWORD, create_room, screenshot, signup

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def link_of(page: Page) -> str:
    return page.locator("#share-link").input_value()


def state_reads(page: Page) -> list[str]:
    """Requests the page makes to its room's state URL, recorded from now on."""
    reads: list[str] = []
    page.on(
        "request",
        lambda r: reads.append(r.url) if "/state.json" in r.url else None,
    )
    return reads


def mark(page: Page) -> None:
    """A marker that a reload would wipe."""
    page.evaluate("() => { window.__sameDocument = true; }")


def still_same_document(page: Page) -> bool:
    return bool(page.evaluate("() => window.__sameDocument === true"))


def room_socket_open(page: Page) -> None:
    page.wait_for_function("() => window.dominoSockets?.room?.isOpen")


def join_by_link(page: Page, link: str) -> None:
    page.goto(link)
    page.get_by_role("button", name="Join the game").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_two_players_see_a_join_and_a_leave_without_reload(new_page, device):
    size = PHONE if device == "phone" else {}
    host, guest = new_page(**size), new_page(**size)
    signup(host, "host")
    guest_name = signup(guest, "guest")
    create_room(host)
    room_socket_open(host)
    reads = state_reads(host)
    mark(host)
    join_by_link(guest, link_of(host))
    expect(host.locator("#room-seats")).to_contain_text(guest_name, timeout=5000)
    expect(host.locator("#room-events")).to_contain_text(f"{guest_name} joined")
    room_socket_open(guest)
    mark(guest)
    # The seat actions are buttons, and Copy link is there.
    for name in ("Remove", "Move"):
        button = host.locator("#room-seats").get_by_role("button", name=name).first
        assert "button" in (button.get_attribute("class") or "").split()
    expect(host.get_by_role("button", name="Copy link")).to_be_visible()
    screenshot(host, f"room-live-joined-{device}")

    guest.get_by_role("button", name="Leave the room").click()
    guest.wait_for_url(re.compile(r"/$"))
    expect(host.locator("#room-events")).to_contain_text(f"{guest_name} left")
    expect(host.locator("#room-seats")).not_to_contain_text(guest_name)
    assert still_same_document(host), "the host's page was reloaded"
    time.sleep(2.5)  # longer than the old poll's period
    assert reads == [], f"the room page read its state URL: {reads}"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_removed_player_is_told_and_kept_out(new_page, device):
    size = PHONE if device == "phone" else {}
    host, guest = new_page(**size), new_page(**size)
    signup(host, "host")
    guest_name = signup(guest, "guest")
    create_room(host)
    link = link_of(host)
    code = host.locator("#room-code").inner_text()
    join_by_link(guest, link)
    room_socket_open(guest)
    expect(host.locator("#room-seats")).to_contain_text(guest_name)
    seat = host.locator(f'#room-seats li:has-text("{guest_name}")')
    seat.get_by_role("button", name="Remove").click()
    expect(host.locator("#room-seats")).not_to_contain_text(guest_name)

    removed = guest.locator("#room-removed")
    expect(removed).to_contain_text("The host removed you from this room.")
    expect(guest.locator("#room-seats")).not_to_contain_text(guest_name)
    screenshot(guest, f"room-removed-told-{device}")

    guest.goto(link)
    expect(guest.locator("#join-removed")).to_be_visible()
    expect(guest.get_by_role("button", name="Join the game")).to_have_count(0)
    screenshot(guest, f"room-removed-link-{device}")
    guest.goto("/rooms/join/")
    guest.fill("#room-code-input", code)
    guest.get_by_role("button", name="Find the room").click()
    expect(guest.locator("#join-removed")).to_be_visible()
    expect(guest.get_by_role("button", name="Join the game")).to_have_count(0)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_signed_out_friend_sees_who_invites_them_and_signs_up_first(new_page, device):
    size = PHONE if device == "phone" else {}
    host = new_page()
    host_name = signup(host, "host")
    create_room(host, seats=2)
    link = link_of(host)
    friend = new_page(**size)
    friend.goto(link)
    invite = friend.locator("#join-invite")
    expect(invite).to_contain_text(f"{host_name} invites you to play Draw")
    screenshot(friend, f"room-join-signed-out-{device}")
    friend.locator("#join-signup").click()
    friend.wait_for_url(re.compile(r"/accounts/signup/"))
    name = f"friend{int(time.time() * 1000) % 10_000_000}{device[0]}"
    friend.fill("input[name=username]", name)
    friend.fill("input[name=email]", f"{name}@example.com")
    friend.fill("input[name=password1]", PASSWORD)
    friend.fill("input[name=password2]", PASSWORD)
    friend.locator("form button[type=submit]").last.click()
    friend.wait_for_url(re.compile(r"/rooms/join/"))
    friend.get_by_role("button", name="Join the game").click()
    friend.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(host.locator("#room-seats")).to_contain_text(name)


def test_a_full_room_says_so_and_a_closed_one_invites_nobody(new_page):
    host, other, late = new_page(), new_page(), new_page(**PHONE)
    signup(host, "host")
    signup(other, "other")
    signup(late, "late")
    create_room(host, seats=2)
    link = link_of(host)
    join_by_link(other, link)
    late.goto(link)
    expect(late.locator("#join-full")).to_contain_text("is full")
    expect(late.get_by_role("button", name="Join the game")).to_have_count(0)
    screenshot(late, "room-join-full-phone")
    late.set_viewport_size({"width": 1280, "height": 800})
    screenshot(late, "room-join-full-desktop")
    for page in (other, host):  # the last one out closes the room
        page.get_by_role("button", name="Leave the room").click()
        page.wait_for_url(re.compile(r"/$"))
    late.goto(link)
    expect(late.locator("#room-invite-card")).to_contain_text("has closed")
    expect(late.locator("#room-invite-card")).not_to_contain_text("invites you")
    screenshot(late, "room-join-closed-desktop")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_decline_and_block_confirms_and_my_profile_can_unblock(new_page, device):
    size = PHONE if device == "phone" else {}
    host, guest = new_page(), new_page(**size)
    host_name = signup(host, "host")
    guest_name = signup(guest, "guest")
    create_room(host)
    host.fill("#invite-name", guest_name)
    host.get_by_role("button", name="Invite", exact=True).click()
    expect(host.locator("#room-invited")).to_contain_text(guest_name)
    guest.goto("/invitations/")
    guest.get_by_role("link", name="Decline and block this player…").click()
    confirm = guest.locator("#block-confirm")
    expect(confirm).to_contain_text("can no longer invite you")
    expect(confirm).to_contain_text("never seated together")
    screenshot(guest, f"invitation-block-confirm-{device}")
    guest.get_by_role("button", name="Decline and block").click()
    expect(guest.locator(".messages")).to_contain_text("Invitation declined.")
    # The host's page hears the answer, without a reload.
    expect(host.locator("#room-invited")).to_have_count(0)

    guest.goto(f"/players/{guest_name}/")
    blocks = guest.locator("#my-blocks")
    expect(blocks).to_contain_text(host_name)
    screenshot(guest, f"profile-blocks-{device}")
    blocks.get_by_role("button", name="Unblock").click()
    expect(guest.locator(".messages")).to_contain_text(
        f"{host_name} is no longer blocked"
    )
    expect(guest.locator("#my-blocks")).to_contain_text("You have blocked nobody.")
    assert guest.url.endswith(f"/players/{guest_name}/")
