"""A German browser on the Spanish rules is offered, in German, the same page in
German: one click lands there; a dismissed offer stays away on every page."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from games.names import variant_title
from tests.e2e.helpers import screenshot

pytestmark = pytest.mark.e2e

SENTENCE = "This page is also available in %(language)s."


def address(name: str, language: str, *args: str) -> str:
    """The page's address in ``language`` (its own address once pages have one per
    language; today the same for every language)."""
    with translation.override(language):
        return reverse(name, args=args)


def german_browser_reading_spanish(new_page, live_url: str) -> Page:
    """A browser set to German whose pages come in Spanish: a language cookie (a
    page's Spanish address does the same where it has one)."""
    page = new_page(locale="de-DE")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "es", "url": live_url}]
    )
    return page


def test_a_german_browser_on_the_spanish_rules_reaches_them_in_german(
    new_page, live_url
):
    page = german_browser_reading_spanish(new_page, live_url)
    spanish = address("rules-variant", "es", "draw")
    page.goto(spanish)
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert urlsplit(page.url).path == spanish, "the offer never moves the reader"

    offer = page.locator("#language-offer")
    expect(offer).to_be_visible()
    expect(offer).to_have_attribute("lang", "de")
    with translation.override("de"):
        sentence = gettext(SENTENCE) % {"language": "Deutsch"}
        german_title = variant_title("draw")
    expect(page.locator("#language-offer-link")).to_have_text(sentence)
    screenshot(page, "language-offer-de-on-es")

    page.locator("#language-offer-link").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert urlsplit(page.url).path == address("rules-variant", "de", "draw")
    expect(page.locator("main h1")).to_have_text(german_title)
    expect(offer).to_have_count(0)


def test_a_dismissed_offer_stays_away_on_every_page(new_page, live_url):
    page = german_browser_reading_spanish(new_page, live_url)
    spanish = address("rules-variant", "es", "draw")
    page.goto(spanish)
    offer = page.locator("#language-offer")
    expect(offer).to_be_visible()

    page.locator("#language-offer-dismiss button").click()
    expect(offer).to_have_count(0)
    assert urlsplit(page.url).path == spanish
    expect(page.locator("html")).to_have_attribute("lang", "es")

    for path in (
        address("rules", "es"),
        address("home", "es"),
        address("rules-variant", "es", "block"),
        spanish,
    ):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", "es")
        expect(page.locator("main h1")).to_be_visible()
        expect(offer).to_have_count(0)
