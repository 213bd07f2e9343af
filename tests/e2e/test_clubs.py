"""A club in Chromium: one player starts it from the form (by request), another
(whose browser speaks Spanish) asks to join, the leader accepts; on the club page
each reads the other's lines live in the club's chat, phrases in their own
language, and a reload brings back the lines said before."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup

pytestmark = pytest.mark.e2e


def test_a_club_is_started_joined_and_its_members_chat(new_page):
    ana = new_page()
    ana_name = signup(ana, "ana")
    ben = new_page(locale="es-ES")
    ben_name = signup(ben, "ben")

    ana.goto("/clubs/")
    ana.fill("#club-name", f"Harbour {ana_name[-6:]}")
    ana.fill("#club-description", "Fridays at eight.")
    ana.locator("#club-new input[name=open][value='0']").check()
    ana.locator("#club-new button[type=submit]").click()
    expect(ana).to_have_url(re.compile(r"/clubs/harbour-[\w-]+/$"))
    club_url = ana.url

    ben.goto(club_url)
    expect(ben.locator("#chat")).to_have_count(0)
    ben.locator("#club-join").click()
    expect(ben.locator("#club-asked")).to_be_visible()

    ana.reload()
    ana.locator("#club-requests").get_by_role("button", name="Accept").click()
    expect(ana.locator(f'[data-member="{ben_name}"]')).to_be_visible()

    ben.goto(club_url)
    for page in (ana, ben):  # the chat goes over the presence socket
        page.reload()
        page.wait_for_function("() => window.dominoSockets?.presence?.isOpen")
    expect(ben.locator(f'[data-member="{ana_name}"]')).to_contain_text("en línea")
    ana.locator("#chat [data-phrase=good_luck]").click()
    expect(ben.locator("#chat .chat-log")).to_contain_text(
        f"{ana_name}: ¡Buena suerte!"
    )
    ben.locator("#chat input").fill("nos vemos el viernes")
    ben.locator("#chat input").press("Enter")
    expect(ana.locator("#chat .chat-log")).to_contain_text(
        f"{ben_name}: nos vemos el viernes"
    )
    screenshot(ben, "club-chat-es")

    # Lines said before are there on opening the page.
    ana.reload()
    log = ana.locator("#chat .chat-log")
    expect(log).to_contain_text(f"{ana_name}: Good luck!")
    expect(log).to_contain_text(f"{ben_name}: nos vemos el viernes")
