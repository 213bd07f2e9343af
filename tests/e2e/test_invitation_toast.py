"""A room invitation's toast lands in view on any page, however long, on a phone and
on a desktop, with a bell that follows the sound toggle; screenshots of both go to
the test artifacts."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import ARTIFACTS, create_room, signup

pytestmark = pytest.mark.e2e

LONG_PAGE = "/rules/all_fives/"

# Counts the tones the page starts (Web Audio oscillators): a sound played or not.
COUNT_TONES = """
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__tones += 1;
  return start.apply(this, args);
};
"""


def invite(host: Page, guest_name: str) -> None:
    host.fill("#invite-name", guest_name)
    host.get_by_role("button", name="Invite", exact=True).click()
    expect(host.locator(".messages")).to_contain_text("Invitation sent.")


def assert_in_view(page: Page, width: int, height: int) -> None:
    toast = page.locator("#invitation-toasts .toast")
    expect(toast).to_be_visible()
    expect(toast).to_have_attribute("role", "alert")
    assert page.evaluate("() => window.scrollY") == 0
    for part in (toast, toast.get_by_role("button", name="Accept")):
        box = part.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    # Nothing covers the button: a tap there reaches it.
    accept = toast.get_by_role("button", name="Accept")
    box = accept.bounding_box()
    assert box is not None
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).textContent",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top == "Accept"


@pytest.mark.parametrize(
    ("device", "width", "height", "sound"),
    [("phone", 390, 844, "on"), ("desktop", 1280, 800, "off")],
)
def test_the_toast_is_in_view_on_a_long_page(new_page, device, width, height, sound):
    host, guest = new_page(), new_page(width, height)
    signup(host, "host")
    guest_name = signup(guest, "guest")
    guest.add_init_script(COUNT_TONES)
    guest.evaluate("on => localStorage.setItem('dominoes.sound', on)", sound)
    guest.goto(LONG_PAGE)
    assert guest.evaluate("() => document.documentElement.scrollHeight") > 2 * height
    # Sounds may play once the player has touched the page.
    guest.locator("main h1").first.click()
    create_room(host)
    invite(host, guest_name)

    assert_in_view(guest, width, height)
    guest.screenshot(path=str(ARTIFACTS / f"invitation-toast-{device}.png"))
    # The bell rings unless the player turned sounds off (the table's toggle).
    if sound == "on":
        guest.wait_for_function("() => window.__tones > 0")
    else:
        guest.wait_for_timeout(500)
        assert guest.evaluate("() => window.__tones") == 0

    # The buttons are reached from the keyboard too.
    accept = guest.locator("#invitation-toasts .toast").get_by_role(
        "button", name="Accept"
    )
    accept.focus()
    expect(accept).to_be_focused()
    guest.keyboard.press("Enter")
    guest.wait_for_url(host.url)
