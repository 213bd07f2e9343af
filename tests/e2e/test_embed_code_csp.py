"""The snippet builder (/embed/code/) under the site's Content Security Policy: a
visitor changes every option and the page reports no violation (no inline style
set from a script), while the code still follows the options."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

# Collected from the first script on: the page's own violations, as the browser
# reports them to the page.
LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`
    + ` ${event.sourceFile}:${event.lineNumber}`);
});
"""


def test_changing_the_snippet_options_breaks_no_content_security_rule(
    new_page, live_url
):
    page = new_page(width=1200, height=900)
    console: list[str] = []

    def on_console(message) -> None:
        if "Content Security Policy" in message.text:
            console.append(message.text)

    page.on("console", on_console)
    page.add_init_script(LISTEN)
    page.goto("/embed/code/")
    snippet = page.locator("#embed-snippet")
    expect(snippet).to_have_value(
        f'<iframe src="{live_url}/embed/?variant=draw&amp;seats=2&amp;target=100'
        '&amp;level=easy" width="100%" height="680" style="max-width:900px;border:0"'
        ' title="Dominoes" loading="lazy"></iframe>'
    )
    page.select_option("#code-variant", "all_fives")
    page.select_option("#code-seats", "3")
    page.select_option("#code-level", "hard")
    page.select_option("#code-lang", "pl")
    page.fill("#code-height", "900")
    page.locator("#code-height").dispatch_event("change")
    expect(snippet).to_have_value(
        re.compile(
            r'^<iframe src="[^"]*variant=all_fives&amp;seats=3&amp;target=\d+'
            r'&amp;level=hard&amp;lang=pl" width="100%" height="900" '
            r'style="max-width:900px;border:0" title="Dominoes" loading="lazy">'
            r"</iframe>$"
        )
    )
    page.select_option("#code-variant", "spider")
    expect(snippet).to_have_value(re.compile("variant=spider"))
    # The preview frame has loaded the last address before the reports are read.
    preview = page.frame_locator("#embed-preview")
    expect(preview.locator("#embed-variant")).to_have_value("spider")
    assert page.evaluate("window.cspViolations") == []
    assert console == []
