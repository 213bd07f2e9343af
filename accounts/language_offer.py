"""The offer of a page in the reader's own language: "Diese Seite gibt es auch auf
Deutsch."

A reader whose browser prefers (``Accept-Language``) a language the site speaks,
on a page in another, reads one line at the top of the page, written in the
preferred language, that links to the same page in it. The line never redirects by
itself: a search engine and a link shared in a chat stay where they point.

Where the page has an address per language (``i18n_patterns``), the line links to
it (``translate_url``); elsewhere it is a button of the site's language form
(``set_language``), which applies the choice and comes back to the same page.

Nobody is asked twice: the line is not shown to a player who chose a language on
the profile, nor in a browser that dismissed it or chose a language with the
switcher (a cookie, read here on the server, so a dismissed line never flashes).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import resolve_url
from django.urls import translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from accounts.language import language_from_accept, language_supported, player_language

OFFER_COOKIE = "language_offer"
DISMISSED = "dismissed"

# Set on a request whose page read ``Accept-Language`` for the offer.
_READ_ACCEPT = "language_offer_read_accept"


@dataclass(frozen=True, slots=True)
class LanguageOffer:
    """The line, every word of it in the offered language."""

    language: str
    bidi: bool
    sentence: str
    label: str
    dismiss: str
    # The page's own address in the language, or "" where it has none (then the
    # line is a button of the language form, which comes back to ``here``).
    href: str
    here: str
    # What the line's script writes to ``document.cookie`` when it is dismissed.
    dismissed_cookie: str


def language_offer(request: HttpRequest) -> LanguageOffer | None:
    """The offer to show on this page, or ``None``."""
    if request.COOKIES.get(OFFER_COOKIE) == DISMISSED or player_language(request):
        return None
    setattr(request, _READ_ACCEPT, True)
    preferred = language_from_accept(request.headers.get("Accept-Language", ""))
    if preferred is None or preferred == language_supported(translation.get_language()):
        return None
    here = request.get_full_path()
    href = translate_url(request.path, preferred)
    if href == request.path:
        href = ""
    elif query := urlsplit(here).query:
        href = f"{href}?{query}"
    name = dict(settings.LANGUAGES)[preferred]
    with translation.override(preferred):
        return LanguageOffer(
            language=preferred,
            bidi=translation.get_language_bidi(),
            sentence=gettext("This page is also available in %(language)s.")
            % {"language": name},
            label=gettext("Language"),
            dismiss=gettext("No, thanks"),
            href=href,
            here=here,
            dismissed_cookie=_dismissed_cookie(request),
        )


def _dismissed_cookie(request: HttpRequest) -> str:
    """The dismissal as ``document.cookie`` takes it, with the attributes the
    server gives it (``offer_dismissed_cookie_set``)."""
    parts = [
        f"{OFFER_COOKIE}={DISMISSED}",
        f"path={settings.LANGUAGE_COOKIE_PATH}",
        f"max-age={settings.LANGUAGE_COOKIE_AGE}",
        f"samesite={settings.LANGUAGE_COOKIE_SAMESITE or 'Lax'}",
    ]
    if settings.LANGUAGE_COOKIE_DOMAIN:
        parts.append(f"domain={settings.LANGUAGE_COOKIE_DOMAIN}")
    if settings.LANGUAGE_COOKIE_SECURE or request.is_secure():
        parts.append("secure")
    return "; ".join(parts)


def offer_dismissed_cookie_set(response: HttpResponseBase) -> None:
    """Remember in this browser that the reader answered the offer (it lives as long
    as a language choice does)."""
    response.set_cookie(
        OFFER_COOKIE,
        DISMISSED,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
    )


def safe_next(request: HttpRequest) -> str:
    """The page to go back to: the form's ``next`` if it is on this site, else home."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url("home")


class LanguageOfferVaryMiddleware(MiddlewareMixin):
    """A page that read ``Accept-Language`` for the offer varies with it, so that a
    cache never hands one reader's offer to another (Django's ``LocaleMiddleware``
    leaves the header out on an address that names its language)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, _READ_ACCEPT, False):
            patch_vary_headers(response, ("Accept-Language",))
        return response
