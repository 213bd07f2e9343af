"""Addresses per language: which pages have one, and a page's address in each.

The public pages (home, rules, leaderboards, the league's top, player pages, shared
replays, the embed's documentation) sit in ``config/urls.py``'s ``i18n_patterns``:
English at the bare address (``/rules/draw/``), every other language under its code
(``/es/rules/draw/``, ``/zh-hans/rules/draw/``). There the address names the page's
language. Every other page (a signed-in player's tables, wallet, profile, friends,
lobby) keeps one address, shown in the reader's own choice (``accounts.language``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.urls import (
    LocalePrefixPattern,
    NoReverseMatch,
    Resolver404,
    ResolverMatch,
    URLResolver,
    get_resolver,
    reverse,
    translate_url,
)
from django.utils import translation

# Query parameters that make another page of the same address: a leaderboard's page,
# a shared replay's signed link. Any other (the embed builder's options, a tracking
# tag) names no page of its own, so alternates and the canonical address leave it.
PAGE_PARAMETERS = ("page", "share")


def site_language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def _localized_patterns(urlconf: str | None) -> URLResolver | None:
    """The ``i18n_patterns`` resolver of the URL configuration, if it has one."""
    for pattern in get_resolver(urlconf).url_patterns:
        if isinstance(pattern, URLResolver) and isinstance(
            pattern.pattern, LocalePrefixPattern
        ):
            return pattern
    return None


def localized_match(
    path: str, language: str, urlconf: str | None = None
) -> ResolverMatch | None:
    """The page ``path`` is, among the pages with an address per language, when
    read as an address in ``language``; ``None`` for any other address."""
    resolver = _localized_patterns(urlconf)
    if resolver is None or not path.startswith("/"):
        return None
    with translation.override(language):
        try:
            return resolver.resolve(path[1:])
        except Resolver404:
            return None


def _prefix(path: str) -> str | None:
    """The language code ``path`` starts with (``/es/…``), if any."""
    head = path.split("/", 2)[1] if path.startswith("/") else ""
    return head if head in site_language_codes() else None


def unprefixed(path: str) -> str:
    """``path`` without its language prefix: ``/es/league/top/`` → ``/league/top/``."""
    code = _prefix(path)
    return path[len(code) + 1 :] if code else path


def address_language(path: str, urlconf: str | None = None) -> str | None:
    """The language an address names: its prefix (``/es/…``), English for the bare
    address of a page with an address per language, ``None`` for a page with one
    address (the reader's choice decides).

    A bare address that only lacks its final slash (``/rules``) counts as its page:
    it is redirected there, and the redirect must find the page.
    """
    code = _prefix(path)
    if code:
        return code
    default = str(settings.LANGUAGE_CODE)
    candidates = [path]
    if settings.APPEND_SLASH and not path.endswith("/"):
        candidates.append(path + "/")
    for candidate in candidates:
        if localized_match(candidate, default, urlconf) is not None:
            return default
    return None


def page_addresses(request: HttpRequest) -> dict[str, str] | None:
    """The absolute address of the requested page in every language the site
    speaks, or ``None`` when the page has one address for all of them."""
    language = translation.get_language() or str(settings.LANGUAGE_CODE)
    match = localized_match(request.path_info, language)
    if match is None:
        return None
    query = request.GET.copy()
    for name in list(query):
        if name not in PAGE_PARAMETERS:
            del query[name]
    # As the page's own links write them (a signed link's colons left as they are).
    suffix = f"?{query.urlencode(safe=':/')}" if query else ""
    addresses = {}
    for code in site_language_codes():
        with translation.override(code):
            try:
                path = reverse(match.view_name, args=match.args, kwargs=match.kwargs)
            except NoReverseMatch:
                return None
        addresses[code] = request.build_absolute_uri(path + suffix)
    return addresses


def translated_address(url: str, language: str) -> str:
    """``url`` (an address on this site, with its query) as the same page's address in
    ``language``; unchanged for a page with one address or an unknown one.

    Django's ``translate_url`` reads the address in the language active now, so
    it reads it in the language the address itself names.
    """
    named = address_language(urlsplit(url).path) or translation.get_language()
    with translation.override(named):
        return translate_url(url, language)
