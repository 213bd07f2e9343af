"""What search engines read: ``/sitemap.xml`` and ``/robots.txt``.

The sitemap lists the public pages in every language, each with its alternates and
the English bare address as ``x-default``. Player pages (signed-in readers only)
and replays (one per finished table, and a practice replay is private) are left
out: a replay someone shares still carries its alternates on its own page.
"""

from __future__ import annotations

import functools

from django.contrib.sitemaps import Sitemap
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from games.guide.data import GUIDE
from matchmaking.pools.config import pools_all

# A page of the sitemap: its URL name and arguments.
Page = tuple[str, tuple[str, ...]]


class PublicPages(Sitemap):  # type: ignore[type-arg]
    """Every public page with an address per language (``accounts.addresses``)."""

    i18n = True
    alternates = True
    x_default = True

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def get_domain(self, site: object = None) -> str:
        # The host the request named (checked against ALLOWED_HOSTS), as the pages'
        # own alternates use: the sites framework's domain is the e-mails' one.
        return self.domain

    def items(self) -> list[Page]:
        leaderboards = dict.fromkeys(pool.variant for pool in pools_all())
        return [
            ("home", ()),
            ("rules", ()),
            *(("rules-variant", (variant,)) for variant in GUIDE),
            *(("leaderboard", (variant,)) for variant in leaderboards),
            ("league_top", ()),
            ("embed-code", ()),
        ]

    def location(self, item: Page) -> str:
        name, args = item
        return reverse(name, args=args)


@functools.lru_cache(maxsize=8)
def sitemap_document(*, protocol: str, domain: str) -> str:
    """The sitemap as served at ``protocol://domain``: made once per process (some
    12,000 addresses take over a second), as the pages it lists change only with
    the code."""
    urls = PublicPages(domain).get_urls(protocol=protocol)
    return loader.render_to_string("sitemap.xml", {"urlset": urls})


@require_safe
@gzip_page  # some 1.1 MB of addresses, 11 KB compressed
def sitemap_xml(request: HttpRequest) -> HttpResponse:
    document = sitemap_document(protocol=request.scheme, domain=request.get_host())
    response = HttpResponse(document, content_type="application/xml")
    # As Django's own sitemap view: the list itself is no page to show in results.
    response.headers["X-Robots-Tag"] = "noindex, noodp, noarchive"
    return response


# The pages of signed-in players, accounts, administration and the machinery, by
# the start of their one address. Public pages never start with one of these but
# for those allowed below; the other languages' addresses start with their code.
# The offline game's pages (``/play/offline/``) are public but hold nothing to
# find (a game with no server, the offline notice): they stay under ``/play/``.
# The service worker is machinery crawlers never run; the web app manifest, which
# every page links to as it does its styles, is left open.
PRIVATE_PREFIXES = (
    "/sw.js",
    "/accounts/",
    # The open API (docs/api.md) and the player's page of API tokens.
    "/api/",
    "/account/",
    "/admin/",
    "/profile/",
    "/wallet/",
    "/shop/",
    "/play/",
    "/games/",
    "/tables/",
    "/rooms/",
    "/invitations/",
    "/league/",
    "/friends/",
    "/watch/",
    "/tv/",
    "/chat/",
    "/clubs/",
    "/tournaments/",
    "/embed/",
    "/i18n/",
    "/ops/",
    "/healthz",
    "/metrics",
)
# Public pages under a private prefix; ``*`` is any run of characters (the rule
# search engines read), and the longest rule that matches an address wins.
PUBLIC_UNDER_PRIVATE = ("/league/top/", "/embed/code/", "/tables/*/replay/")


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    lines = [
        "User-agent: *",
        *(f"Allow: {path}" for path in PUBLIC_UNDER_PRIVATE),
        *(f"Disallow: {path}" for path in PRIVATE_PREFIXES),
        "",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")
