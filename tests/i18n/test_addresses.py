"""An address per language for the public pages: English at the bare address
(/rules/draw/), every other language under its code (/es/rules/draw/), each page
naming its alternates and its canonical address; the pages of a signed-in player
keep one address in the reader's choice. The chooser lands on the same page in the
chosen language, every address that answered before still answers, and a crawler
starting at / reaches every variant's rules in every language."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from games.guide.data import GUIDE
from games.models import Table
from games.replays.access import replay_share_token
from games.services import table_practice_create
from matchmaking.pools.config import pools_all
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
CODES = [code for code, _name in settings.LANGUAGES]
SAMPLE = ["en", "es", "ar", "zh-hans", "fil"]
SITE = "http://testserver"
# The public pages anyone may read, as (URL name, arguments).
OPEN_PAGES = [
    ("home", ()),
    ("rules", ()),
    ("rules-variant", ("draw",)),
    ("leaderboard", ("draw",)),
    ("league_top", ()),
    ("embed-code", ()),
]


def address(name: str, language: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


def page_language(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "the page names its language"
    return found.group(1)


def head_links(html: str) -> tuple[list[str], dict[str, str]]:
    """The page's canonical addresses and its alternates by ``hreflang``."""
    head = html.split("</head>", 1)[0]
    canonical = re.findall(r'<link rel="canonical" href="([^"]+)">', head)
    alternates: dict[str, str] = {}
    for code, href in re.findall(
        r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', head
    ):
        assert code not in alternates, f"two alternates for {code}"
        alternates[code] = unescape(href)
    return [unescape(c) for c in canonical], alternates


def assert_alternates(html: str, name: str, language: str, *args, query: str = ""):
    canonical, alternates = head_links(html)
    assert canonical == [SITE + address(name, language, *args) + query]
    assert set(alternates) == {*CODES, "x-default"}
    for code in CODES:
        assert alternates[code] == SITE + address(name, code, *args) + query
    assert alternates["x-default"] == alternates["en"]
    assert not alternates["en"].startswith(f"{SITE}/en/")


@pytest.fixture
def no_queue(queued):
    """Timed jobs of the tables made here are recorded, not sent to a broker."""
    return queued


def finished_practice(user):
    table = table_practice_create(
        user=user,
        variant="draw",
        options={"target": 50},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    return drive(table.pk, {0: user}, rng=random.Random(1))


@pytest.mark.parametrize("language", SAMPLE)
def test_each_public_page_names_its_alternates_and_canonical_address(client, language):
    for name, args in OPEN_PAGES:
        url = address(name, language, *args)
        assert url.startswith("/" if language == "en" else f"/{language}/"), url
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert page_language(html) == language, url
        assert response["Content-Language"] == language
        assert_alternates(html, name, language, *args)


@pytest.mark.parametrize("language", SAMPLE)
def test_player_pages_and_replays_name_theirs_too(
    client, make_user, no_queue, language
):
    ana = make_user("ana")
    table = finished_practice(ana)
    client.force_login(ana)
    for name, args in (("player-profile", ("ana",)), ("table-replay", (table.pk,))):
        html = client.get(address(name, language, *args)).content.decode()
        assert page_language(html) == language
        assert_alternates(html, name, language, *args)
    # A shared replay's signed link is part of its address in every language; a
    # parameter that names no page of its own is not.
    client.logout()
    token = replay_share_token(table)
    url = address("table-replay", language, table.pk)
    html = client.get(url, {"share": token, "utm_source": "chat"}).content.decode()
    assert_alternates(html, "table-replay", language, table.pk, query=f"?share={token}")


def test_a_leaderboards_page_number_stays_in_its_addresses(client):
    html = client.get(address("leaderboard", "es", "draw"), {"page": "2"}).content
    assert_alternates(html.decode(), "leaderboard", "es", "draw", query="?page=2")


def test_a_page_with_one_address_names_no_alternates(client, make_user):
    client.force_login(make_user())
    client.cookies[COOKIE] = "es"
    for name in ("wallet", "profile", "play", "lobby", "friends", "league"):
        html = client.get(reverse(name)).content.decode()
        assert page_language(html) == "es", name
        assert head_links(html) == ([], {}), name
    missing = client.get("/rules/no-such-variant/")
    assert missing.status_code == 404
    assert head_links(missing.content.decode()) == ([], {})


def test_a_bare_public_address_is_english_whatever_the_reader_chose(client, make_user):
    """The address says English: no redirect, no other language, for a cookie, a
    browser or a profile that prefers another."""
    player = make_user()
    Profile.objects.create(user=player, language="it")
    client.force_login(player)
    client.cookies[COOKIE] = "es"
    for name, args in OPEN_PAGES:
        url = address(name, "en", *args)
        assert translation.get_language_from_path(url) is None, url
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, url
        assert page_language(response.content.decode()) == "en", url
        assert response.wsgi_request.LANGUAGE_CODE == "en"
    # The reader's choice still decides the pages with one address.
    assert page_language(client.get(reverse("wallet")).content.decode()) == "es"


def test_the_prefix_decides_a_public_page_over_every_choice(client, make_user):
    player = make_user()
    Profile.objects.create(user=player, language="it")
    client.force_login(player)
    client.cookies[COOKIE] = "es"
    response = client.get("/ar/rules/draw/", HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="ar" dir="rtl">' in response.content.decode()
    assert response.wsgi_request.LANGUAGE_CODE == "ar"
    # Reading a page in a language is no choice: the cookie is left as it was.
    assert client.cookies[COOKIE].value == "es"
    assert page_language(client.get(reverse("wallet")).content.decode()) == "es"


def links(html: str) -> list[str]:
    return [unescape(h) for h in re.findall(r'<a [^>]*href="([^"]+)"', html)]


def test_internal_links_lead_to_the_public_pages_in_the_pages_language(
    client, make_user
):
    index = client.get("/es/rules/").content.decode()
    found = links(index)
    assert "/es/" in found  # the site's name
    assert all(f"/es/rules/{variant}/" in found for variant in GUIDE)
    footer = index.split('<footer class="footer">', 1)[1]
    assert 'href="/es/rules/" id="footer-rules"' in footer
    assert 'href="/es/embed/code/" id="footer-embed"' in footer
    assert not [h for h in found if h.startswith("/rules/")]
    # The bare (English) page links the bare pages, whatever the reader chose.
    client.cookies[COOKIE] = "es"
    bare = links(client.get("/rules/").content.decode())
    assert "/rules/draw/" in bare and "/es/rules/draw/" not in bare
    # A page with one address links the public pages in its reader's language.
    client.force_login(make_user())
    wallet = client.get(reverse("wallet")).content.decode()
    assert 'href="/es/rules/" id="footer-rules"' in wallet
    assert 'class="brand" href="/es/"' in wallet
    assert 'href="/play/online/"' in wallet  # one address for every language


def test_the_nav_lights_the_league_on_its_top_in_any_language(client, make_user):
    client.force_login(make_user())
    for url in ("/league/top/", "/fil/league/top/"):
        html = client.get(url).content.decode()
        assert re.search(r'<a href="/league/" aria-current="page">', html), url


@pytest.mark.parametrize(
    ("next_url", "cookie", "chosen", "lands"),
    [
        ("/rules/draw/", None, "fr", "/fr/rules/draw/"),
        # The bare page read by a reader whose choice is Spanish: still English.
        ("/rules/draw/", "es", "fr", "/fr/rules/draw/"),
        ("/es/rules/draw/", "es", "en", "/rules/draw/"),
        ("/ar/leaderboard/draw/?page=2", None, "zh-hans",
         "/zh-hans/leaderboard/draw/?page=2"),
        ("/zh-hans/league/top/", "ja", "fil", "/fil/league/top/"),
        ("/embed/code/", "es", "ar", "/ar/embed/code/"),
        ("/", "es", "pt-br", "/pt-br/"),
        ("/fil/", None, "en", "/"),
        ("/wallet/", "es", "ar", "/wallet/"),
        ("/play/online/", None, "ja", "/play/online/"),
    ],
)  # fmt: skip
def test_the_chooser_lands_on_the_same_page_in_the_chosen_language(
    client, next_url, cookie, chosen, lands
):
    if cookie:
        client.cookies[COOKIE] = cookie
    response = client.post(
        reverse("set_language"), {"language": chosen, "next": next_url}
    )
    assert response.status_code == 302
    assert response["Location"] == lands
    assert response.cookies[COOKIE].value == chosen


def test_a_chosen_language_follows_the_player_onto_the_page(client, make_user):
    player = make_user()
    client.force_login(player)
    response = client.post(
        reverse("set_language"),
        {"language": "ar", "next": "/rules/catalan/"},
        follow=True,
    )
    assert response.redirect_chain == [("/ar/rules/catalan/", 302)]
    assert '<html lang="ar" dir="rtl">' in response.content.decode()
    assert Profile.objects.get(user=player).language == "ar"
    # The choice now decides the pages with one address too.
    assert page_language(client.get(reverse("wallet")).content.decode()) == "ar"


def test_an_unknown_language_leaves_the_page_as_it_was(client):
    response = client.post(
        reverse("set_language"), {"language": "xx", "next": "/es/rules/"}
    )
    assert response["Location"] == "/es/rules/"
    assert COOKIE not in response.cookies


def test_signing_in_and_out_lands_on_home_in_the_players_language(make_user):
    player = make_user()
    Profile.objects.create(user=player, language="it")
    browser = Client()
    response = browser.post(
        reverse("account_login"),
        {"login": player.username, "password": "a-Long-pass-42"},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response["Location"] == "/it/"
    response = browser.post(reverse("account_logout"))
    assert response["Location"] == "/it/"


def today_addresses(player: str, table_id: int) -> tuple[list[str], list[str]]:
    """The addresses that answered before public pages had one per language:
    every public page at its bare address, and a sample of the others."""
    leaderboards = dict.fromkeys(pool.variant for pool in pools_all())
    public = [
        "/",
        "/rules/",
        *(f"/rules/{variant}/" for variant in GUIDE),
        *(f"/leaderboard/{variant}/" for variant in leaderboards),
        "/league/top/",
        f"/players/{player}/",
        f"/tables/{table_id}/replay/",
        "/embed/code/",
        # Without the final slash: redirected to the page.
        "/rules",
        "/rules/draw",
        "/league/top",
        "/embed/code",
    ]
    private = [
        "/play/",
        "/play/online/",
        "/play/stakes/",
        "/games/",
        f"/tables/{table_id}/",
        f"/tables/{table_id}/history/",
        "/wallet/",
        "/shop/",
        "/profile/",
        "/friends/",
        "/watch/",
        "/invitations/",
        "/league/",
        "/tournaments/",
        "/rooms/new/",
        "/embed/",
        "/embed/draw/",
        "/accounts/password/change/",
        "/healthz?only=database",
        "/robots.txt",
        "/sitemap.xml",
        "/play",
        "/wallet",
    ]
    return public, private


@pytest.mark.parametrize("language", ["en", "es", "ar", "zh-hans", "fil"])
def test_every_address_of_before_still_answers(client, make_user, no_queue, language):
    """Served or redirected, never a 404, for a reader of each language, signed
    out and signed in; a bare public page in English, another in the choice."""
    table, player, _ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=50)
    drive(table.pk, {0: player, 1: _ben}, rng=random.Random(3))
    public, private = today_addresses(player.username, table.pk)
    client.cookies[COOKIE] = language
    for signed_in in (False, True):
        if signed_in:
            client.force_login(player)
        for url in public + private:
            response = client.get(url)
            assert response.status_code in (200, 301, 302), (url, signed_in)
            if response.status_code in (301, 302):
                assert response["Location"].startswith("/"), url
                followed = client.get(response["Location"], follow=True)
                assert followed.status_code == 200, (url, signed_in)
                continue
            if response["Content-Type"].startswith("text/html"):
                expected = "en" if url in public else language
                assert page_language(response.content.decode()) == expected, url


def test_a_crawler_from_home_reaches_every_variants_rules_in_every_language(
    client,
):
    """Links and alternates only: from / to the rules, then each page's alternates
    and links; every rules page reached names all of its alternates."""
    wanted = {address("rules-variant", code, v) for code in CODES for v in GUIDE}
    wanted |= {address("rules", code) for code in CODES}
    seen: set[str] = set()
    queue = ["/"]
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        canonical, alternates = head_links(html)
        assert canonical == [SITE + url], url
        assert set(alternates) == {*CODES, "x-default"}, url
        found = links(html) + [a.removeprefix(SITE) for a in alternates.values()]
        # The crawl keeps to the rules guide (and home, where it starts).
        queue += [
            path
            for path in found
            if path not in seen and re.fullmatch(r"(/[a-z-]+)?/rules/([a-z_]+/)?", path)
        ]
    assert wanted <= seen, sorted(wanted - seen)[:10]
