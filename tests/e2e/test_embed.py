"""The embedded game on another site: a page on another origin frames /embed/, a
visitor plays a whole match inside the frame with third-party cookies blocked,
reloads the page and goes on with the same game; the link under the game stays;
any other page of the site refuses to be framed; bad parameters fall back."""

from __future__ import annotations

import http.server
import re
import socket
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Frame, Page, expect

from tests.e2e.helpers import act_once, frame, screenshot, wait_ready

pytestmark = pytest.mark.e2e

# The host page's own ports (this machine's share for the embed tests).
HOST_PORTS = range(8710, 8720)


def _host_port() -> int:
    for port in HOST_PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def host_html(live_url: str) -> bytes:
    """A club's page that pasted the snippet, a bad snippet and a framed site page."""
    game = f"{live_url}/embed/?variant=draw&seats=2&target=50&level=easy&speed=instant"
    spanish = f"{live_url}/embed/draw/?lang=es"
    bad = f"{live_url}/embed/?variant=nope&seats=99&target=-5&level=genius&lang=xx"
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Domino club</title></head><body><h1>Our domino club</h1>
<iframe id="game" src="{game}" width="100%" height="760" title="Dominoes"></iframe>
<iframe id="spanish" src="{spanish}" width="320" height="500"></iframe>
<iframe id="bad" src="{bad}" width="360" height="500"></iframe>
<iframe id="other" src="{live_url}/" width="300" height="200"></iframe>
</body></html>""".encode()


@pytest.fixture
def host_url(live_url: str) -> Iterator[str]:
    """A page served from another site: ``localhost`` against the live server's
    ``127.0.0.1``, so the frame is a third party to it (ports alone are one site)."""
    body = host_html(live_url)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    port = _host_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{port}/"
    server.shutdown()
    server.server_close()


def block_third_party_cookies(page: Page) -> None:
    """Block third-party cookies the way a browser setting does (Chromium's
    cookie controls); a browser context already blocks them like a private window."""
    session = page.context.new_cdp_session(page)
    session.send(
        "Network.setCookieControls",
        {
            "enableThirdPartyCookieRestriction": True,
            "disableThirdPartyCookieMetadata": True,
            "disableThirdPartyCookieHeuristics": True,
        },
    )


def game_frame(page: Page, element: str = "#game") -> Frame:
    handle = page.locator(element).element_handle()
    assert handle is not None
    found = handle.content_frame()
    assert found is not None
    found.wait_for_load_state()
    return found


def test_a_match_inside_a_frame_on_another_site(new_page, host_url, live_url):
    page = new_page(width=1100, height=1000)
    block_third_party_cookies(page)
    page.goto(host_url)
    game = game_frame(page)

    # A cookie the frame sets for itself is refused: it is a third party here.
    game.evaluate("() => { document.cookie = 'probe=1; SameSite=None; Secure'; }")
    assert "probe=1" not in game.evaluate("() => document.cookie")
    assert game.evaluate(
        "() => { try { localStorage.length; return false } catch { return true } }"
    ), "third-party storage should be blocked in this browser"

    link = game.locator("#embed-link a")
    expect(link).to_contain_text("Play dominoes online at")
    assert link.get_attribute("href") == f"{live_url}/"
    assert link.get_attribute("target") == "_blank"

    # The snippet preset the game: the form shows it.
    expect(game.locator("#embed-variant")).to_have_value("draw")
    expect(game.locator("#embed-target")).to_have_value("50")
    game.get_by_role("button", name="Start the game").click()
    wait_ready(game)
    table_id = frame(game)["table"]["id"]
    expect(game.locator("#seats .seat")).to_have_count(2)

    # One whole hand by clicking.
    for _ in range(200):
        view = frame(game)["view"]
        if view["phase"] in ("hand_over", "match_over"):
            break
        act_once(game)
    else:
        pytest.fail("the hand did not end")
    seq = frame(game)["seq"]
    screenshot(page, "embed-hand-over")

    # No session or CSRF cookie was needed for any of it.
    names = {c["name"] for c in page.context.cookies() if c["domain"] == "127.0.0.1"}
    assert not names & {"sessionid", "csrftoken"}, names

    # Reload the club's page: the same game comes back where it was.
    page.reload()
    game = game_frame(page)
    wait_ready(game)
    resumed = frame(game)
    assert resumed["table"]["id"] == table_id
    assert resumed["seq"] >= seq
    expect(game.locator("#embed-link a")).to_contain_text("Play dominoes online at")

    # And on to the end of the match.
    for _ in range(600):
        f = frame(game)
        if f["view"]["phase"] == "match_over":
            break
        act_once(game)
    else:
        pytest.fail("the match did not end")
    assert frame(game)["table"]["id"] == table_id
    game.get_by_role("button", name="Finish").click()
    expect(game.locator("#match-result")).to_be_visible()
    expect(game.locator("#embed-link a")).to_be_visible()
    screenshot(page, "embed-match-over")


def test_other_pages_refuse_frames_and_bad_parameters_fall_back(
    new_page, host_url, live_url
):
    page = new_page(width=1100, height=1000)
    block_third_party_cookies(page)
    page.goto(host_url)

    # Bad parameters: the default game, no error page.
    bad = game_frame(page, "#bad")
    expect(bad.locator("#embed-variant")).to_have_value("draw")
    expect(bad.locator("#embed-seats")).to_have_value("2")
    expect(bad.locator("#embed-level")).to_have_value("easy")
    expect(bad.get_by_role("button", name="Start the game")).to_be_visible()
    expect(bad.locator("#embed-link a")).to_contain_text("Play dominoes online at")

    # The visitor's language from ?lang=, at 320 px wide.
    spanish = game_frame(page, "#spanish")
    assert spanish.evaluate("() => document.documentElement.lang") == "es"
    expect(spanish.locator("label[for=embed-target]")).to_have_text("Jugar hasta")
    assert spanish.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
    ), "the frame scrolls sideways at 320 px"

    # Any other page of the site is refused in a frame: the frame holds no page
    # of the site (Chromium shows its error page instead).
    other = game_frame(page, "#other")
    assert other.url.startswith("chrome-error:"), other.url
    assert other.locator(".topbar").count() == 0
    # The same page opened directly is fine: it is the framing that is refused.
    direct = page.context.new_page()
    direct.goto(f"{live_url}/")
    expect(direct.locator(".topbar")).to_be_visible()


def test_the_snippet_builder_updates_the_code_and_the_preview(new_page, live_url):
    page = new_page(width=1200, height=900)
    page.goto("/embed/code/")
    snippet = page.locator("#embed-snippet")
    expect(snippet).to_have_value(
        f'<iframe src="{live_url}/embed/?variant=draw&amp;seats=2&amp;target=100'
        '&amp;level=easy" width="100%" height="680" style="max-width:900px;border:0"'
        ' title="Dominoes" loading="lazy"></iframe>'
    )
    page.select_option("#code-variant", "spider")
    page.select_option("#code-level", "hard")
    page.select_option("#code-lang", "es")
    value = snippet.input_value()
    assert "variant=spider" in value and "level=hard" in value and "lang=es" in value
    # Spider is played by two: the seats offered follow the variant.
    expect(page.locator("#code-seats option")).to_have_count(1)
    preview = page.locator("#embed-preview")
    expect(preview).to_have_attribute("src", re.compile(r"variant=spider.*lang=es"))
    inside = page.frame_locator("#embed-preview")
    expect(inside.locator("#embed-variant")).to_have_value("spider")
    expect(inside.locator("#embed-level")).to_have_value("hard")
    page.get_by_role("button", name="Copy the code").click()
    expect(page.locator("#embed-copied")).to_have_text("Copied.")
