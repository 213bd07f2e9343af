"""The offer of a page in the reader's language: shown, in that language, when the
browser prefers a language the site speaks and the page is in another; linking to
the same page in it; never a redirect; not again once dismissed or once the reader
chose a language; never for a player who chose one on the profile."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse, translate_url
from django.utils import translation
from django.utils.translation import gettext

from accounts.language_offer import (
    DISMISSED,
    OFFER_COOKIE,
    LanguageOfferVaryMiddleware,
    language_offer,
)
from accounts.models import Profile

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
GERMAN_BROWSER = "de-DE,de;q=0.9,en;q=0.5"
SENTENCE = "This page is also available in %(language)s."


@dataclass
class Offer:
    language: str
    direction: str
    label: str
    sentence: str
    href: str  # the link, or "" where the line is a button of the language form
    form_language: str
    form_next: str


def _attribute(tag: str, name: str, after: str = "") -> str:
    """The value of ``name`` in ``tag`` (the first one following ``after``)."""
    found = re.search(rf'{re.escape(after)}[^>]*?\s{name}="([^"]*)"', tag)
    return unescape(found.group(1)) if found else ""


def offer_on(html: str) -> Offer | None:
    """The offer on a page, read from its markup (``None`` when there is none)."""
    found = re.search(
        r'(<aside[^>]*id="language-offer"[^>]*>)(.*?)</aside>', html, re.S
    )
    if found is None:
        return None
    aside, inside = found.groups()
    href = form_language = form_next = ""
    link = re.search(r'(<a [^>]*id="language-offer-link"[^>]*>)(.*?)</a>', inside, re.S)
    if link is not None:
        href, sentence = _attribute(link.group(1), "href"), link.group(2)
    else:  # a button of the language form
        form = re.search(
            r'<form [^>]*action="([^"]*)"[^>]*>(.*?id="language-offer-link".*?)</form>',
            inside,
            re.S,
        )
        assert form is not None, "the offer links somewhere"
        assert form.group(1) == reverse("set_language")
        button = re.search(r"<button [^>]*>(.*?)</button>", form.group(2), re.S)
        assert button is not None
        sentence = button.group(1)
        form_language = _attribute(form.group(2), "value", after='name="language"')
        form_next = _attribute(form.group(2), "value", after='name="next"')
    return Offer(
        language=_attribute(aside, "lang"),
        direction=_attribute(aside, "dir"),
        label=_attribute(aside, "aria-label"),
        sentence=unescape(sentence.strip()),
        href=href,
        form_language=form_language,
        form_next=form_next,
    )


def english_reader(accept: str = GERMAN_BROWSER) -> Client:
    """A browser that asks for ``accept`` but is shown English pages (today by its
    language cookie; an address per language does the same)."""
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    client.cookies[COOKIE] = "en"
    return client


def page_language(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found
    return found.group(1)


def rules_of_draw() -> str:
    with translation.override("en"):
        return reverse("rules-variant", args=["draw"])


def test_a_german_browser_on_an_english_page_is_offered_the_page_in_german():
    client = english_reader()
    path = rules_of_draw()
    response = client.get(path)
    html = response.content.decode()
    assert response.status_code == 200
    assert page_language(html) == "en"

    offer = offer_on(html)
    assert offer is not None
    assert (offer.language, offer.direction) == ("de", "ltr")
    # Every word of the line is German: its landmark's name is already translated.
    assert offer.label == "Sprache"
    with translation.override("de"):
        assert offer.sentence == gettext(SENTENCE) % {"language": "Deutsch"}
    assert "Deutsch" in offer.sentence

    german = translate_url(path, "de")
    if german != path:  # the page has an address per language: a plain link
        assert offer.href == german
        landed = client.get(german)
    else:  # one address: the language form applies the choice and comes back
        assert (offer.form_language, offer.form_next) == ("de", path)
        landed = client.post(
            reverse("set_language"),
            {"language": "de", "next": offer.form_next},
            follow=True,
        )
        assert landed.redirect_chain[-1][0] == path
    html = landed.content.decode()
    assert page_language(html) == "de"
    assert offer_on(html) is None


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/rules/",
        "/rules/draw/",
        "/leaderboard/draw/",
        "/league/top/",
        "/embed/code/",
    ],
)
def test_the_offer_never_redirects(path):
    response = english_reader().get(path)
    assert response.status_code == 200, response.headers.get("Location")
    offer = offer_on(response.content.decode())
    assert offer is not None and offer.language == "de"


def test_no_offer_when_the_page_is_in_the_preferred_language():
    client = Client(HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    with translation.override("de"):
        german = reverse("rules-variant", args=["draw"])
    html = client.get(german).content.decode()
    assert page_language(html) == "de"
    assert offer_on(html) is None
    # A page of one address, in the language the cookie chose.
    client.cookies[COOKIE] = "de"
    html = client.get("/accounts/password/reset/").content.decode()
    assert page_language(html) == "de"
    assert offer_on(html) is None
    # English first in the browser, English page.
    assert offer_on(english_reader("en-US,de;q=0.9").get("/").content.decode()) is None


@pytest.mark.parametrize(
    ("accept", "offered"),
    [
        ("sv-SE, fr;q=0.5, de;q=0.8", "de"),  # the best the site speaks, by weight
        ("pt-PT", "pt-br"),
        ("sv-SE, da;q=0.8", None),  # nothing the site speaks
        ("", None),
        ("*", None),
    ],
)
def test_the_browser_s_best_language_the_site_speaks(accept, offered):
    offer = offer_on(english_reader(accept).get("/").content.decode())
    assert (offer.language if offer else None) == offered


def test_the_offer_in_a_right_to_left_language_reads_right_to_left():
    offer = offer_on(english_reader("ar-EG").get("/").content.decode())
    assert offer is not None
    assert (offer.language, offer.direction) == ("ar", "rtl")
    assert "العربية" in offer.sentence


def test_the_line_keeps_the_page_s_query():
    client = english_reader()
    path = "/leaderboard/draw/?page=2"
    offer = offer_on(client.get(path).content.decode())
    assert offer is not None
    assert (offer.href or offer.form_next).endswith("?page=2")


def test_a_dismissed_offer_does_not_come_back():
    client = english_reader()
    path = rules_of_draw()
    html = client.get(path).content.decode()
    assert offer_on(html) is not None
    # The line's script writes the same cookie, with no trip to the server.
    script_cookie = re.search(r'data-cookie="([^"]*)"', html)
    assert script_cookie is not None
    assert unescape(script_cookie.group(1)).startswith(f"{OFFER_COOKIE}={DISMISSED};")

    response = client.post(reverse("language-offer-dismiss"), {"next": path})
    assert response.status_code == 302
    assert response.headers["Location"] == path
    cookie = response.cookies[OFFER_COOKIE]
    assert cookie.value == DISMISSED
    assert int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE

    for page in (path, "/", "/rules/"):
        html = client.get(page).content.decode()
        assert page_language(html) == "en"
        assert offer_on(html) is None, page


def test_dismissing_goes_back_only_to_a_page_of_this_site():
    response = english_reader().post(
        reverse("language-offer-dismiss"), {"next": "https://example.com/"}
    )
    assert response.headers["Location"] == reverse("home")
    assert Client().get(reverse("language-offer-dismiss")).status_code == 405


def test_choosing_a_language_with_the_switcher_answers_the_offer():
    client = Client(HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    chosen = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    html = client.get(chosen["Location"]).content.decode()
    assert page_language(html) == "es"
    assert offer_on(html) is None


def test_no_offer_for_a_player_who_chose_a_language_on_the_profile(make_user):
    chose, did_not = make_user("chose"), make_user("didnot")
    Profile.objects.create(user=chose, language="en")

    client = Client(HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    client.force_login(chose)
    html = client.get(rules_of_draw()).content.decode()
    assert page_language(html) == "en"  # the profile's language, not the browser's
    assert offer_on(html) is None

    # A player with no language on the profile is offered it like anyone.
    other = english_reader()
    other.force_login(did_not)
    assert offer_on(other.get(rules_of_draw()).content.decode()) is not None


def test_a_page_that_read_accept_language_for_the_offer_varies_with_it():
    factory = RequestFactory()
    middleware = LanguageOfferVaryMiddleware(lambda request: HttpResponse())

    read = factory.get("/", HTTP_ACCEPT_LANGUAGE="de")
    with translation.override("en"):
        assert language_offer(read) is not None
    assert "Accept-Language" in middleware(read).headers["Vary"]

    dismissed = factory.get("/", HTTP_ACCEPT_LANGUAGE="de")
    dismissed.COOKIES[OFFER_COOKIE] = DISMISSED
    assert language_offer(dismissed) is None
    assert "Vary" not in middleware(dismissed).headers
