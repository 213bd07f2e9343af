"""Which language a request or a WebSocket is served in.

The player's choice wins: the language switcher (footer and profile) sets Django's
language cookie and, for a signed-in player, ``Profile.language``. Signing in copies
the profile's choice into the cookie (or a choice made before signing up into the
profile), so the choice follows the player to any browser and survives logging out.
Without a choice, the browser's ``Accept-Language`` decides, else English.

A public page with an address per language (``accounts.addresses``) is shown in the
language its address names, whatever the choice: ``/es/rules/`` in Spanish, the bare
``/rules/`` in English. The choice decides every page with one address.

A WebSocket reads the same cookie and header (``LanguageScopeMiddleware`` puts the
result in ``scope["language"]``); no database is touched on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import trans_real

from accounts.addresses import address_language
from accounts.models import Profile

# The request attribute that asks the middleware to (re)write the language cookie.
COOKIE_PENDING = "language_cookie_pending"


def language_supported(code: str | None) -> str | None:
    """``code`` (or its base language) if the site ships it, else ``None``."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_from_accept(accept_language: str) -> str | None:
    """The best language of an ``Accept-Language`` header that the site speaks."""
    for code, _quality in trans_real.parse_accept_lang_header(accept_language):
        if code == "*":
            break
        found = language_supported(code)
        if found:
            return found
    return None


def language_from_headers(cookie: str | None, accept_language: str) -> str:
    """The cookie's language if supported, else the best of ``Accept-Language``."""
    return (
        language_supported(cookie)
        or language_from_accept(accept_language)
        or str(settings.LANGUAGE_CODE)
    )


def profile_language(user: Any) -> str | None:
    """The language the player chose on any browser, if any."""
    found = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    return language_supported(found)


def profile_language_set(
    *, user: Any, language: str, request: HttpRequest | None = None
) -> None:
    """Remember ``language`` (a supported code) as the player's choice (and in this
    browser's session, which keeps a copy)."""
    Profile.objects.update_or_create(user=user, defaults={"language": language})
    session = getattr(request, "session", None)
    if session is not None:
        session[SESSION_KEY] = language


def language_cookie_set(response: HttpResponseBase, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


# The session's copy of the profile's language ("" for none), so that a browser
# without a language cookie does not read the profile on every page.
SESSION_KEY = "profile_language"


def _reader_choice(request: HttpRequest) -> str:
    """The language this reader asks for: the cookie; without one, a signed-in
    player's profile (the cookie is then written with the response); else the
    browser's ``Accept-Language``; else English."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    user = getattr(request, "user", None)
    if not language_supported(cookie) and user is not None and user.is_authenticated:
        chosen = _session_profile_language(request, user)
        if chosen:
            setattr(request, COOKIE_PENDING, chosen)
            return chosen
    return translation.get_language_from_request(request)


def _session_profile_language(request: HttpRequest, user: Any) -> str | None:
    session = getattr(request, "session", None)
    if session is not None and SESSION_KEY in session:
        return language_supported(session[SESSION_KEY])
    chosen = profile_language(user)
    if session is not None:
        session[SESSION_KEY] = chosen or ""
    return chosen


def player_language(request: HttpRequest) -> str | None:
    """The language a signed-in player chose on the profile, if any."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return _session_profile_language(request, user)


class LanguageMiddleware(LocaleMiddleware):
    """Django's ``LocaleMiddleware`` for a site whose public pages have an address
    per language and whose other pages have one: the address names the language of
    the first; the reader's choice (cookie, else the signed-in player's profile,
    else ``Accept-Language``) decides the second. Placed after authentication."""

    def process_request(self, request: HttpRequest) -> None:
        chosen = _reader_choice(request)
        named = address_language(request.path_info, getattr(request, "urlconf", None))
        translation.activate(named or chosen)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response = super().process_response(request, response)
        pending = getattr(request, COOKIE_PENDING, None)
        if pending:
            language_cookie_set(response, pending)
        return response


@receiver(user_logged_in)
def language_on_login(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    """Signing in brings the profile's language to this browser; a choice made here
    before the player had a profile language becomes the profile's."""
    if request is None:
        return
    chosen = _session_profile_language(request, user)
    if chosen:
        setattr(request, COOKIE_PENDING, chosen)
        # The page after signing in (its address reversed now) is in it too.
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen
        return
    cookie = language_supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        profile_language_set(user=user, language=cookie, request=request)


class LanguageScopeMiddleware:
    """ASGI middleware: ``scope["language"]`` from the language cookie, else the
    ``Accept-Language`` header (both sent with the WebSocket handshake)."""

    def __init__(self, inner: Callable[..., Any]) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        cookie = None
        accept = ""
        for name, value in scope.get("headers", []):
            if name == b"accept-language":
                accept = value.decode("latin-1")
            elif name == b"cookie":
                cookie = _cookie_value(
                    value.decode("latin-1"), settings.LANGUAGE_COOKIE_NAME
                )
        scope = dict(scope, language=language_from_headers(cookie, accept))
        return await self.inner(scope, receive, send)


def _cookie_value(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip('"')
    return None
