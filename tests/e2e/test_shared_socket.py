"""The pages' shared socket client (static/js/socket.js) in a browser: a lost socket
shows in the page's status line and comes back by itself, a stopping server (1001)
is said and reconnected to, a refusal (4429) stops the attempts with the server's
message, and a frame the server refused as ``busy`` is sent once more.

The server's side of a close is played by Playwright's WebSocket routing, which
stands between the page and daphne and can close the page's socket with any code.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.helpers import signup

pytestmark = pytest.mark.e2e

STATUS = ".socket-status"


def open_lobby(page: Page) -> None:
    page.goto("/play/online/")
    expect(page.locator('button.find[data-pool="draw-2"]')).to_be_enabled()


def search_and_cancel(page: Page) -> None:
    """The lobby works: a search starts, shows, and is cancelled."""
    page.locator('button.find[data-pool="draw-2"]').click()
    expect(page.locator("#lobby-search")).to_be_visible()
    page.locator("#lobby-cancel").click()
    expect(page.locator("#lobby-search")).to_be_hidden()
    expect(page.locator('button.find[data-pool="draw-2"]')).to_be_enabled()


def test_a_lost_lobby_socket_says_so_and_comes_back(new_page):
    page = new_page()
    signup(page, "lost")
    open_lobby(page)
    status = page.locator(STATUS)
    expect(status).to_have_attribute("role", "status")
    expect(status).to_be_hidden()
    page.evaluate("() => window.dominoSockets.lobby.drop()")
    expect(status).to_have_text(re.compile("reconnecting…"))
    expect(page.locator('button.find[data-pool="draw-2"]')).to_be_disabled()
    expect(status).to_be_hidden(timeout=10_000)
    expect(status).to_have_text("")
    search_and_cancel(page)


def test_a_stopping_server_is_said_and_the_page_reconnects(new_page):
    page = new_page()
    signup(page, "restart")
    routes: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        routes.append(ws)
        ws.connect_to_server()

    # Leave the signed-up page first: its own presence socket, reconnecting once the
    # route is in place, would be routed and counted too.
    page.goto("about:blank")
    page.route_web_socket(re.compile(r"/ws/presence/$"), through)
    page.goto("/")
    online = page.locator("#online")
    expect(online).to_have_text(re.compile(r"\d+ players? online"))
    assert len(routes) == 1
    page.evaluate("() => { document.getElementById('online').textContent = '…'; }")
    routes[0].close(code=1001, reason="stopping")
    status = page.locator(STATUS)
    expect(status).to_have_text("The server is restarting…")
    # Promptly (the first attempt after 1001 waits a second at most), and live again.
    expect(status).to_be_hidden(timeout=5_000)
    expect(online).to_have_text(re.compile(r"\d+ players? online"))
    assert len(routes) == 2


def test_too_many_pages_stops_the_attempts_and_shows_the_servers_message(new_page):
    page = new_page()
    signup(page, "many")
    message = "You have too many pages like this one open."
    routes: list[WebSocketRoute] = []

    def refuse(ws: WebSocketRoute) -> None:
        routes.append(ws)
        ws.send(
            json.dumps(
                {"type": "error", "code": "too_many_sockets", "message": message}
            )
        )
        ws.close(code=4429, reason="too many")

    # Leave the signed-up page first: its own presence socket, reconnecting once the
    # route is in place, would be refused too and counted as a second attempt.
    page.goto("about:blank")
    page.route_web_socket(re.compile(r"/ws/presence/$"), refuse)
    page.goto("/")
    status = page.locator(STATUS)
    expect(status).to_have_text(message)
    time.sleep(3)  # longer than the first few attempts would wait
    expect(status).to_have_text(message)
    assert len(routes) == 1


BUSY = {
    "type": "error",
    "code": "busy",
    "message": "The server is busy, try again in a moment.",
    "retry": 1,
}


def lobby_busy_for(page: Page, searches: int) -> list[dict]:
    """Answer the first ``searches`` search frames of the page's lobby socket with
    ``busy`` in the server's stead; the frames the page sends, in order."""
    sent: list[dict] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            sent.append(frame)
            count = [f["type"] for f in sent].count("search")
            if frame["type"] == "search" and count <= searches:
                ws.send(json.dumps(BUSY))
                return
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/lobby/$"), route)
    return sent


def test_a_busy_answer_sends_the_frame_once_more(new_page):
    page = new_page()
    signup(page, "busy")
    sent = lobby_busy_for(page, 1)
    open_lobby(page)
    page.locator('button.find[data-pool="draw-2"]').click()
    # The client answers the busy frame itself: the page shows no error, and the
    # search the server never saw is sent again and runs.
    expect(page.locator("#lobby-search")).to_be_visible(timeout=5_000)
    expect(page.locator("#lobby-error")).to_be_hidden()
    searches = [f for f in sent if f["type"] == "search"]
    assert searches == [{"type": "search", "pool": "draw-2", "speed": "slow"}] * 2
    page.locator("#lobby-cancel").click()
    expect(page.locator("#lobby-search")).to_be_hidden()


def test_a_second_busy_answer_is_shown_and_not_retried(new_page):
    page = new_page()
    signup(page, "busier")
    sent = lobby_busy_for(page, 5)
    open_lobby(page)
    page.locator('button.find[data-pool="draw-2"]').click()
    expect(page.locator("#lobby-error")).to_have_text(BUSY["message"], timeout=5_000)
    time.sleep(2.5)  # past another retry's time
    assert [f["type"] for f in sent].count("search") == 2
    expect(page.locator("#lobby-search")).to_be_hidden()
