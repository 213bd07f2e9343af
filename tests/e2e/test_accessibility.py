"""axe-core over the main pages, signed out and in, one of them in Arabic: no
serious or critical violation of WCAG 2.1 A/AA or axe's best practices, and
nothing outside a landmark. The Play form's script changes nothing the server
laid out (the page holds still as it loads).

axe-core comes from the pinned ``axe-playwright-python`` of the test extras (it
bundles axe-core): nothing downloads while the test runs. ``make audit`` runs the
same rules over more pages, widths and Lighthouse's scores.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import Page

from tests.e2e.helpers import frame, signup, start_practice, wait_ready

pytestmark = pytest.mark.e2e

AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}
BLOCKING = {"serious", "critical"}

# The Play form's parts that its script shows or hides, and whether each is
# hidden: in the page as it is now, and in the server's HTML parsed as it came.
PARTS = """html => {
  const parts = (doc) => [...doc.querySelectorAll(
    "#variant-rules .rule, [data-bot], [data-field], [data-choice], #variant-choices"
  )].map((el) => [el.dataset.variant || el.dataset.bot || el.dataset.field
                  || el.dataset.choice || el.id, el.hidden]);
  return {now: parts(document),
          served: parts(new DOMParser().parseFromString(html, "text/html"))};
}"""


def problems(page: Page, axe: Axe, where: str) -> list[str]:
    """The serious and critical violations on the page, and what lies outside a
    landmark, one line per element."""
    page.evaluate("document.fonts.ready.then(() => null)")
    found = axe.run(page, options=AXE_OPTIONS).response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) at {' '.join(map(str, node['target']))}"
        for v in found
        if v["impact"] in BLOCKING or v["id"] == "region"
        for node in v["nodes"]
    ]


def test_main_pages_pass_axe_signed_out_and_in_and_in_arabic(new_page):
    axe = Axe()
    found: list[str] = []
    page = new_page()
    for path in (
        "/",
        "/rules/",
        "/rules/draw/",
        "/league/top/",
        "/embed/",
        "/embed/code/",
    ):
        page.goto(path)
        found += problems(page, axe, f"{path} signed out")

    signup(page)
    for path in ("/", "/play/", "/play/online/", "/league/"):
        page.goto(path)
        found += problems(page, axe, f"{path} signed in")
    start_practice(page, "draw", seats=2, levels=("easy",))
    found += problems(page, axe, "a practice table, signed in")

    # Right to left: the same table in Arabic.
    table = frame(page)["table"]["id"]
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ar", "url": page.url}]
    )
    page.goto(f"/tables/{table}/")
    wait_ready(page)
    assert page.locator("html").get_attribute("dir") == "rtl"
    found += problems(page, axe, "a practice table in Arabic")
    assert not found, "accessibility problems:\n" + "\n".join(found)


@pytest.mark.parametrize("path", ["/play/", "/rooms/new/"])
def test_the_play_forms_script_keeps_what_the_server_laid_out(new_page, path):
    page = new_page(390, 844)
    signup(page)
    page.goto(path)
    served = page.request.get(path).text()
    parts = page.evaluate(PARTS, served)
    assert parts["now"] == parts["served"]
    assert [name for name, hidden in parts["served"] if not hidden].count("draw") == 1
