"""Which language a page or a socket is served in: the player's choice (footer or
profile switcher, kept in the cookie and on the profile), else Accept-Language,
else English; the choice follows the player across browsers and survives logging
out. (A public page's address names its language: tests/i18n/test_addresses.py;
the pages here have one address.)"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.language import LanguageScopeMiddleware, language_from_headers
from accounts.models import Profile

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def one_address_page() -> str:
    """A page with one address for every language, open to every reader."""
    return reverse("account_reset_password")


def page_language(client: Client, path: str = "", **headers: str) -> str:
    html = client.get(path or one_address_page(), **headers).content.decode()
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "the page names its language"
    return found.group(1)


def login(client: Client, user, password: str = "a-Long-pass-42"):
    return client.post(
        reverse("account_login"), {"login": user.username, "password": password}
    )


def test_browser_language_then_english(client):
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="pl-PL,pl;q=0.9,en;q=0.5") == "pl"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="sv-SE,it;q=0.8") == "it"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="sv-SE,da;q=0.8") == "en"
    assert page_language(client) == "en"


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("zh-TW", "zh-hant"),
        ("zh-HK,en;q=0.5", "zh-hant"),
        ("zh-Hant-TW", "zh-hant"),
        ("zh-CN", "zh-hans"),
        ("zh-SG", "zh-hans"),
        ("pt", "pt-br"),
        ("pt-PT", "pt-br"),
        ("pt-BR", "pt-br"),
        ("tl", "fil"),
        ("fil-PH", "fil"),
        ("ar-EG", "ar"),
        ("he-IL", "he"),
        ("fa-IR", "fa"),
        ("ms-MY", "ms"),
        ("id-ID", "id"),
        ("tr-TR", "tr"),
        ("ja-JP", "ja"),
    ],
)
def test_a_browser_language_maps_to_the_sites(client, accept, expected):
    assert page_language(client, HTTP_ACCEPT_LANGUAGE=accept) == expected


@pytest.mark.parametrize(
    ("language", "direction"),
    [("ar", "rtl"), ("fa", "rtl"), ("he", "rtl"), ("en", "ltr"), ("ja", "ltr")],
)
def test_right_to_left_languages_turn_the_page(client, language, direction):
    client.cookies[COOKIE] = language
    html = client.get(one_address_page()).content.decode()
    assert f'<html lang="{language}" dir="{direction}">' in html


def test_cookie_choice_beats_the_browser(client):
    response = client.post(reverse("set_language"), {"language": "ca", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "ca"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="es") == "ca"


def test_an_unknown_language_changes_nothing(client, make_user):
    user = make_user()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert COOKIE not in client.cookies
    assert not Profile.objects.filter(user=user).exists()
    assert page_language(client) == "en"


NATIVE_NAMES = (
    "Bahasa Indonesia", "Bahasa Melayu", "Català", "Deutsch", "English", "Español",
    "Filipino", "Français", "Italiano", "Nederlands", "Polski", "Português (Brasil)",
    "Tiếng Việt", "Türkçe", "Русский", "Українська", "العربية", "فارسی", "עברית",
    "हिन्दी", "ไทย", "简体中文", "繁體中文", "日本語", "한국어",
)  # fmt: skip


def test_footer_and_profile_offer_every_language_in_its_own_name(client, make_user):
    client.force_login(make_user())
    client.cookies[COOKIE] = "ja"
    for path in ("/", reverse("profile")):
        html = client.get(path).content.decode()
        offered = re.findall(
            r'<option value="[^"]+" lang="[^"]+"[^>]*>([^<]+)</option>', html
        )
        assert offered, path
        assert len(offered) % len(NATIVE_NAMES) == 0, path  # one list per switcher
        lists = len(offered) // len(NATIVE_NAMES)
        assert tuple(offered) == NATIVE_NAMES * lists, path
    footer = client.get("/").content.decode().split('<footer class="footer">')[1]
    assert 'name="language"' in footer


def test_a_signed_in_choice_is_kept_on_the_profile(client, make_user):
    user = make_user()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "pl", "next": "/"})
    assert Profile.objects.get(user=user).language == "pl"


def test_the_choice_follows_the_player_to_another_browser(make_user):
    user = make_user()
    Profile.objects.create(user=user, language="it")
    other = Client()
    response = login(other, user)
    assert response.cookies[COOKIE].value == "it"
    assert page_language(other, HTTP_ACCEPT_LANGUAGE="es") == "it"


def test_a_signed_in_browser_without_the_cookie_gets_the_profile_language(make_user):
    user = make_user()
    Profile.objects.create(user=user, language="ca")
    browser = Client()
    browser.force_login(user)
    response = browser.get(one_address_page(), HTTP_ACCEPT_LANGUAGE="pl")
    assert '<html lang="ca" dir="ltr">' in response.content.decode()
    assert response.cookies[COOKIE].value == "ca"


def test_the_choice_survives_logging_out_and_in(client, make_user):
    user = make_user()
    login(client, user)
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    client.post(reverse("account_logout"))
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="pl") == "es"
    login(client, user)
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="pl") == "es"


def test_a_choice_made_before_signing_in_becomes_the_profiles(client, make_user):
    user = make_user()
    client.post(reverse("set_language"), {"language": "it", "next": "/"})
    login(client, user)
    assert Profile.objects.get(user=user).language == "it"


@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        ("ca", "pl", "ca"),
        (None, "pl;q=0.4, it;q=0.9", "it"),
        ("xx", "es-ES", "es"),
        (None, "", "en"),
        (None, "*", "en"),
    ],
)
def test_language_from_headers(cookie, accept, expected):
    assert language_from_headers(cookie, accept) == expected


async def test_sockets_get_the_language_of_their_handshake():
    seen = {}

    async def inner(scope, receive, send):
        seen["language"] = scope["language"]

    app = LanguageScopeMiddleware(inner)
    headers = [(b"cookie", f"sessionid=abc; {COOKIE}=pl".encode())]
    await app({"type": "websocket", "headers": headers}, None, None)
    assert seen["language"] == "pl"
    await app(
        {"type": "websocket", "headers": [(b"accept-language", b"ca")]}, None, None
    )
    assert seen["language"] == "ca"


def test_the_profile_is_read_once_per_session_not_per_page(client, make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ana, ben = make_user("ana"), make_user("ben")
    Profile.objects.create(user=ana, language="pl")
    for player, language in ((ana, "pl"), (ben, "en")):
        client.force_login(player)
        client.cookies.pop(COOKIE, None)
        assert page_language(client, HTTP_ACCEPT_LANGUAGE="en") == language
        client.cookies.pop(COOKIE, None)  # a browser that refuses the cookie
        with CaptureQueriesContext(connection) as seen:
            assert page_language(client, HTTP_ACCEPT_LANGUAGE="en") == language
        assert not [q for q in seen if "accounts_profile" in q["sql"]]
    # Choosing a language on the profile updates the session's copy at once.
    client.post(reverse("set_language"), {"language": "it", "next": "/"})
    client.cookies.pop(COOKIE, None)
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="en") == "it"
