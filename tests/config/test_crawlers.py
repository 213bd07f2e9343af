"""What search engines read: /sitemap.xml lists every public page in every language
with its alternates and nothing private; /robots.txt names the sitemap and keeps
crawlers out of the private pages, not the public ones."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import LocalePrefixPattern, RoutePattern
from django.utils import translation

from accounts.addresses import address_language, localized_match, unprefixed
from config.crawlers import sitemap_document
from games.guide.data import GUIDE
from matchmaking.pools.config import pools_all

pytestmark = pytest.mark.django_db

CODES = [code for code, _name in settings.LANGUAGES]
NS = {
    "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
HOST = "dominoes.example.com"
SITE = f"http://{HOST}"


@pytest.fixture
def crawler():
    sitemap_document.cache_clear()
    with override_settings(ALLOWED_HOSTS=[HOST]):
        yield Client(HTTP_HOST=HOST)
    sitemap_document.cache_clear()


def public_pages() -> list[tuple[str, tuple[str, ...]]]:
    leaderboards = dict.fromkeys(pool.variant for pool in pools_all())
    return [
        ("home", ()),
        ("rules", ()),
        *(("rules-variant", (v,)) for v in GUIDE),
        *(("leaderboard", (v,)) for v in leaderboards),
        ("league_top", ()),
        ("embed-code", ()),
    ]


def address(name: str, language: str, args: tuple[str, ...]) -> str:
    with translation.override(language):
        return SITE + reverse(name, args=args)


def sitemap_entries(client: Client) -> dict[str, dict[str, str]]:
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/xml"
    assert "noindex" in response["X-Robots-Tag"]
    root = ET.fromstring(response.content)
    entries: dict[str, dict[str, str]] = {}
    for url in root.findall("s:url", NS):
        loc = url.findtext("s:loc", namespaces=NS)
        assert loc and loc not in entries, loc
        entries[loc] = {
            link.get("hreflang"): link.get("href")
            for link in url.findall("xhtml:link", NS)
        }
    return entries


def test_the_sitemap_lists_every_public_page_in_every_language(crawler):
    entries = sitemap_entries(crawler)
    expected = {
        address(name, code, args) for name, args in public_pages() for code in CODES
    }
    assert set(entries) == expected
    for name, args in public_pages():
        alternates = {code: address(name, code, args) for code in CODES}
        alternates["x-default"] = alternates["en"]
        for code in CODES:
            assert entries[alternates[code]] == alternates, (name, code)


def test_the_sitemap_holds_nothing_private(crawler):
    for loc in sitemap_entries(crawler):
        assert loc.startswith(f"{SITE}/"), loc
        path = loc.removeprefix(SITE)
        language = address_language(path)
        assert language, path
        assert localized_match(path, language) is not None, path
        bare = unprefixed(path)
        for private in ("/tables/", "/wallet/", "/profile/", "/admin/", "/accounts/",
                        "/api/", "/play/", "/friends/", "/players/"):  # fmt: skip
            assert not bare.startswith(private), path


def robots_allows(robots: str, path: str) -> bool:
    """Search engines' reading of robots.txt: the longest matching rule wins, Allow
    on a tie; ``*`` is any run of characters, a final ``$`` the address's end."""
    best = (-1, True)
    for line in robots.splitlines():
        field, _, value = line.partition(":")
        field, value = field.strip().lower(), value.strip()
        if field not in ("allow", "disallow") or not value:
            continue
        end = "$" if value.endswith("$") else ""
        regex = ".*".join(re.escape(part) for part in value.rstrip("$").split("*"))
        if re.match(regex + end, path):
            best = max(best, (len(value), field == "allow"))
    return best[1]


def test_robots_names_the_sitemap_and_keeps_out_of_private_pages(crawler):
    response = crawler.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    robots = response.content.decode()
    assert "User-agent: *" in robots.splitlines()
    assert f"Sitemap: {SITE}/sitemap.xml" in robots.splitlines()
    for path in ("/wallet/", "/profile/", "/tables/12/", "/tables/12/history/",
                 "/tables/12/replay.json", "/play/", "/play/online/", "/games/",
                 "/friends/", "/league/", "/league/standings.json", "/tournaments/",
                 "/rooms/new/", "/invitations/", "/accounts/login/", "/admin/",
                 "/embed/", "/embed/draw/", "/i18n/setlang/", "/healthz",
                 "/sw.js", "/play/offline/", "/play/offline/notice/",
                 "/play/offline/results/"):  # fmt: skip
        assert not robots_allows(robots, path), path
    for code in ("en", "es", "ar", "zh-hans", "fil"):
        for name, args in [*public_pages(), ("table-replay", ("12",)),
                           ("player-profile", ("ana",))]:  # fmt: skip
            path = address(name, code, args).removeprefix(SITE)
            assert robots_allows(robots, path), path
    assert robots_allows(robots, "/tables/12/replay/?share=abc")
    assert robots_allows(robots, "/sitemap.xml")
    assert robots_allows(robots, "/manifest.webmanifest")


def one_address_routes() -> list[str]:
    """Every route outside the public pages, from the root of the site."""
    routes: list[str] = []

    def walk(patterns: list, prefix: str) -> None:
        for entry in patterns:
            if isinstance(entry.pattern, LocalePrefixPattern):
                continue
            if not isinstance(entry.pattern, RoutePattern):
                # A regular expression: its literal start is what a rule can name.
                route = re.split(r"[\^\\(\[.?*+$]", str(entry.pattern).lstrip("^"))[0]
            else:
                route = str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + route)
            elif isinstance(entry, URLPattern):
                routes.append(prefix + route)

    walk(get_resolver().url_patterns, "/")
    return routes


# Addresses with one address that crawlers may read: the scripts a page needs to
# render (a search engine renders pages), the web app manifest every page links
# to, the crawlers' own files, and the block and unblock forms under a public
# player page (they answer POST only).
OPEN_ON_PURPOSE = (
    "/jsi18n/",
    "/manifest.webmanifest",
    "/robots.txt",
    "/sitemap.xml",
    "/players/",
)


def test_every_private_route_is_kept_from_crawlers(crawler):
    """A page added later with one address and no rule here fails this test."""
    robots = crawler.get("/robots.txt").content.decode()
    routes = one_address_routes()
    assert "/wallet/" in routes and "/accounts/login/" in routes
    for route in routes:
        sample = re.sub(r"<int:[^>]+>", "1", re.sub(r"<(?!int:)[^>]+>", "x", route))
        if sample.startswith(OPEN_ON_PURPOSE) or sample == "/":
            continue
        assert not robots_allows(robots, sample), route
