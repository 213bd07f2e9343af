"""Japanese, Thai and Hindi pages draw every character with a real glyph: the
table and the rules guide, read in Chromium with the system's fonts (no font is
downloaded). Chromium says which platform fonts drew each element's text; every
character of the page must be in one of those fonts (fontconfig's charset), so a
character drawn as an empty box (a font that lacks it) fails the test."""

from __future__ import annotations

import functools
import subprocess

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import frame, main_button, screenshot, signup, start_practice
from tests.support.pages import in_language

pytestmark = pytest.mark.e2e

# A character of each language's own script that its pages must show.
SCRIPTS = {
    "ja": ("\u3040", "\u30ff"),
    "th": ("\u0e00", "\u0e7f"),
    "hi": ("\u0900", "\u097f"),
}


@functools.cache
def charset(family: str) -> frozenset[int]:
    """The code points fontconfig says the fonts of ``family`` cover."""
    out = subprocess.run(
        ["fc-list", f"{family}", "--format", "%{charset}\n"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    points: set[int] = set()
    for span in out.split():
        low, _, high = span.partition("-")
        points.update(range(int(low, 16), int(high or low, 16) + 1))
    return frozenset(points)


def missing_glyphs(page: Page) -> tuple[set[str], set[str], str]:
    """(characters of the page's main part that no font drawing it covers, the
    fonts, the text). The language switcher's list, drawn only when opened, names
    each language in its own script and is left out."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    query = {"nodeId": root, "selector": "main, main *"}
    nodes = cdp.send("DOM.querySelectorAll", query)["nodeIds"]
    families: set[str] = set()
    for node in nodes:
        try:
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        except Exception:  # a node without a layout (hidden, a script)
            continue
        families.update(f["familyName"] for f in fonts)
    text = page.locator("main").inner_text()
    covered = set().union(*(charset(f) for f in families)) if families else set()
    wanted = {c for c in text if not c.isspace() and ord(c) > 0x7F}
    return {c for c in wanted if ord(c) not in covered}, families, text


def check(page: Page, language: str, what: str) -> None:
    missing, families, text = missing_glyphs(page)
    low, high = SCRIPTS[language]
    assert any(low <= c <= high for c in text), f"{what}: no {language} text shown"
    assert not missing, (
        f"{what} in {language}: no glyph for {sorted(missing)} ({families})"
    )
    screenshot(page, f"script-{language}-{what}")


@pytest.mark.parametrize("language", list(SCRIPTS))
def test_the_table_and_the_rules_have_every_glyph(new_page, language):
    page = new_page()
    signup(page, "script")
    start_practice(page, "draw", seats=2, levels=("easy",))
    table_id = frame(page)["table"]["id"]
    page.goto("/")
    page.locator("footer select[name=language]").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.goto(f"/tables/{table_id}/")
    expect(main_button(page)).to_be_visible()
    page.evaluate("document.fonts.ready.then(() => null)")
    check(page, language, "table")
    page.goto(in_language("/rules/draw/", language))
    check(page, language, "rules")
