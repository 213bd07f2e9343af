"""Two people become friends in Chromium: one asks by name, the other (whose browser
speaks Spanish) answers from the toast, each sees the other come online on the
friends page, one click opens a room with the friend invited, and there each says
"Well played" and reads it in their own language; a third watches their table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import screenshot, signup
from tests.support.pages import in_language

pytestmark = pytest.mark.e2e


def test_two_friends_find_each_other_and_meet_in_a_room(new_page):
    ana = new_page()
    ana_name = signup(ana, "ana")
    ben = new_page(locale="es-ES")
    ben_name = signup(ben, "ben")

    ana.goto("/friends/")
    ana.fill("#friend-name", ben_name)
    ana.get_by_role("button", name="Send a friend request").click()
    expect(ana.locator(".messages")).to_contain_text("Friend request sent.")
    # Ben, on any page, is told at once and answers from the toast.
    toast = ben.locator("#invitation-toasts .toast")
    expect(toast).to_contain_text(f"{ana_name} quiere ser tu amigo.")
    expect(ben.locator("#friend-request-count")).to_have_text("1")
    toast.get_by_role("link", name="Responder").click()
    ben.get_by_role("button", name="Aceptar").click()
    expect(ben.locator(f'[data-friend="{ana_name}"]')).to_contain_text("en línea")

    # Ana's list shows Ben; when Ben's pages close, he goes offline there, live.
    ana.goto("/friends/")
    row = ana.locator(f'[data-friend="{ben_name}"]')
    expect(row).to_contain_text("online")
    ben.goto("about:blank")
    expect(row.locator("[data-state]")).to_have_text("offline", timeout=15_000)
    ben.goto(in_language("/", "es"))  # the home page at its Spanish address
    expect(row.locator("[data-state]")).to_have_text("online", timeout=15_000)
    screenshot(ana, "friends-list")

    # One click: a room with Ben invited, and his toast to join.
    row.get_by_role("button", name="Invite to a room").click()
    expect(ana).to_have_url(re.compile(r"/rooms/\d+/$"))
    invitation = ben.locator("#invitation-toasts .toast[data-invitation]")
    expect(invitation).to_contain_text(ana_name)
    invitation.get_by_role("button", name="Aceptar").click()
    expect(ben).to_have_url(re.compile(r"/rooms/\d+/$"))

    # The room's chat: a phrase each reads in their language, a typed line.
    ana.reload()
    for page in (ana, ben):  # chat goes over the presence socket, not queued
        page.wait_for_function("() => window.dominoSockets?.presence?.isOpen")
    ana.locator("#chat [data-phrase=well_played]").click()
    expect(ana.locator("#chat .chat-log")).to_contain_text(f"{ana_name}: Well played!")
    expect(ben.locator("#chat .chat-log")).to_contain_text(f"{ana_name}: ¡Bien jugado!")
    ben.locator("#chat input").fill("gracias, igualmente")
    ben.locator("#chat input").press("Enter")
    expect(ana.locator("#chat .chat-log")).to_contain_text("gracias, igualmente")
    screenshot(ben, "room-chat-es")

    # A third person watches their table, labelled, and the friends see the count.
    ana.locator("#spectators-toggle").click()
    ana.get_by_role("button", name="Start now").click()
    ana.wait_for_url(re.compile(r"/tables/\d+/$"))
    ben.wait_for_url(re.compile(r"/tables/\d+/$"))
    carl = new_page(locale="it-IT")
    signup(carl, "carl")
    carl.goto(ana.url)
    expect(carl.locator("#watching-label")).to_contain_text("Stai guardando.")
    expect(ana.locator("#watching")).to_have_text("1 watching")
    expect(ben.locator("#watching")).to_have_text("1 mirando")
