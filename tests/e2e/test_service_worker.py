"""The service worker in Chromium: a signed-in player's visit installs it; it keeps
the app shell and nothing of the player's; offline, the Play page (where the
installed app starts) answers with the offline game, the rules guide with its
kept copy, and any other page with the offline notice."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import signup

pytestmark = pytest.mark.e2e

KEPT = """async () => {
  const names = await caches.keys();
  const shell = names.filter((name) => name.startsWith("shell-"));
  if (shell.length !== 1) return null;
  const cache = await caches.open(shell[0]);
  const marked = await cache.match("/sw.js?cached-language");
  if (!marked) return null;
  const keys = (await cache.keys()).map((r) => new URL(r.url));
  return {
    name: shell[0],
    keys: keys.map((u) => u.pathname + u.search),
    offline: await (await cache.match("/play/offline/")).text(),
  };
}"""


def kept(page: Page, timeout: float = 30) -> dict:
    """The worker's cache once it has kept the shell and this page's language."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = page.evaluate(KEPT)
        if found:
            return dict(found)
        time.sleep(0.3)
    raise AssertionError("the service worker kept nothing")


def worker_config(live_url: str) -> dict:
    with urllib.request.urlopen(f"{live_url}/sw.js", timeout=10) as response:
        script = response.read().decode()
    found = re.search(r"^const CONFIG = (.*);$", script, re.MULTILINE)
    assert found
    return dict(json.loads(found.group(1)))


def test_the_worker_keeps_the_shell_and_answers_offline(new_page, live_url):
    page = new_page(width=390, height=800)
    name = signup(page)
    page.goto("/play/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cache = kept(page)
    config = worker_config(live_url)
    assert cache["name"] == f"shell-{config['version']}"

    # Only public addresses, and the kept pages hold nothing of the player's.
    allowed = {
        *config["pages"].values(),
        *config["shell"],
        *config["runtime"],
        *config["catalogs"].values(),
        *(url for urls in config["rules"].values() for url in urls),
        "/sw.js?cached-language",
    }
    assert set(cache["keys"]) <= allowed, set(cache["keys"]) - allowed
    assert "/play/" not in cache["keys"]
    assert name not in cache["offline"]
    assert "csrfmiddlewaretoken" not in cache["offline"]

    context = page.context
    context.set_offline(True)
    try:
        page.goto("/play/")
        expect(page.locator("h1")).to_have_text("Practice offline")
        page.goto("/wallet/")
        expect(page.locator("#offline-notice h1")).to_have_text("You are offline")
        page.goto("/rules/")
        expect(page.locator("#footer-rules")).to_be_visible()
        expect(page.locator("header")).not_to_contain_text(name)
    finally:
        context.set_offline(False)
    page.goto("/play/")
    expect(page.locator("header")).to_contain_text(name)


def test_chromium_finds_the_site_installable(new_page, live_url):
    """What Chromium checks before it offers to install a site (a manifest with
    a name, icons of 192 and 512 px, a start address and a standalone display,
    served over a secure origin with a service worker in control) finds nothing
    missing."""
    page = new_page(width=390, height=800)
    page.goto("/play/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"].endswith("/manifest.webmanifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test browser's context is off the record, where Chromium offers no install
    # whatever the site: that one reason is the browser's, every other the site's.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


def test_offline_before_the_runtime_is_kept_the_game_says_it_cannot_start(
    new_page, live_url
):
    """A reader whose visits never offered the offline game has the shell but not
    the runtime: offline, the Play page says in words that the game cannot start
    here, and nothing on the page fails (``new_page`` fails on any script error,
    the engine's worker included)."""
    page = new_page(width=390, height=800)
    page.goto("/rules/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cache = kept(page)
    runtime = set(worker_config(live_url)["runtime"])
    assert runtime and not runtime & set(cache["keys"])

    context = page.context
    context.set_offline(True)
    try:
        page.goto("/play/")
        expect(page.locator("h1")).to_have_text("Practice offline")
        expect(page.locator("#offline-engine-status")).to_have_text(
            "The game could not start in this browser: "
            "play against the computer online."
        )
        expect(page.locator("#offline-start")).to_be_disabled()
    finally:
        context.set_offline(False)
