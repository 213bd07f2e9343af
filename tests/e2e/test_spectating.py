"""A third person watches a friend room's table in Chromium (the host allows
spectators): the spectator is labelled as watching and sees each move only once the
next one is made, and the player sees "1 watching"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    act_once,
    create_room,
    frame,
    record_state_frames,
    screenshot,
    shows_the_servers_state,
    signup,
    wait_for_me,
    wait_ready,
)

pytestmark = pytest.mark.e2e


def played(view: dict) -> list:
    return [h for h in view["history"] if h["type"] == "played"]


def test_a_spectator_watches_one_move_behind_and_the_player_sees_the_count(new_page):
    ana = new_page()
    signup(ana, "ana")
    create_room(ana, seats=2)
    ana.locator("#spectators-toggle").click()
    expect(ana.locator("#spectators-toggle")).to_have_text(
        "Allow players and invited people only"
    )
    ana.get_by_role("button", name="Start now").click()
    ana.wait_for_url(re.compile(r"/tables/\d+/$"))
    wait_ready(ana)
    expect(ana.locator("#watching")).to_be_hidden()

    carl = new_page(locale="pl-PL")
    signup(carl, "carl")
    shown = record_state_frames(carl)
    carl.goto(ana.url)
    wait_ready(carl)
    expect(carl.locator("#watching-label")).to_be_visible()
    expect(carl.locator("#watching")).to_have_text("1 ogląda")
    expect(ana.locator("#watching")).to_have_text("1 watching")
    assert frame(carl)["table"]["timer"] is None
    screenshot(carl, "spectator-pl")

    # Each of Ana's moves reaches Carl a move late: once the computer has laid a
    # tile in answer and Carl's page asked for the state again, Carl is shown the
    # layout her move left, not the computer's answer. (Carl's states are numbered
    # by his own socket, not by the table's moves.)
    ana_frames = record_state_frames(ana)
    ana.reload()
    wait_ready(ana)
    checked = 0
    for _ in range(8):
        last = frame(ana)
        before = played(last["view"])
        if not act_once(ana):
            break
        # Her move is the first number after the one she saw.
        ana.wait_for_function(f"() => window.dominoTable.ui.frame.seq > {last['seq']}")
        mine = next(f for f in ana_frames if f["seq"] == last["seq"] + 1)
        answered = wait_for_me(ana)["view"]
        laid = len(played(mine["view"]))
        if (
            laid == len(before)  # a draw or a pass: nothing new on the layout
            or answered["hand_no"] != mine["view"]["hand_no"]
            or len(played(answered)) != laid + 1  # the computer laid no tile
        ):
            continue
        carl.wait_for_function(
            "() => window.dominoTable.ui.frame.view.history"
            f".filter((h) => h.type === 'played').length === {laid}"
        )
        # The spectator's page patched its state itself, to the server's.
        assert shows_the_servers_state(carl, shown)
        # And stays there once the page asked again: nothing newer is shown.
        carl.evaluate(
            """() => {
              window.dominoTable.ui.frame.asked = true;
              window.dominoTable.socket.send({ type: "sync" });
            }"""
        )
        carl.wait_for_function("() => !window.dominoTable.ui.frame.asked")
        assert len(played(frame(carl)["view"])) == laid
        checked += 1
    assert checked >= 2

    # A new connection numbers Carl's states afresh: his page takes its first state
    # all the same, and the ones after it.
    seen = frame(carl)["seq"]
    carl.evaluate("() => window.dominoTable.socket.drop()")
    carl.wait_for_function(f"() => window.dominoTable.ui.frame.seq < {seen}")
    again = frame(carl)["seq"]
    if act_once(ana):
        carl.wait_for_function(f"() => window.dominoTable.ui.frame.seq > {again}")

    carl.goto("about:blank")
    expect(ana.locator("#watching")).to_be_hidden(timeout=10_000)
