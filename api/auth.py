"""Who is asking: a bearer token, its scopes and its rate, per request.

Only ``Authorization: Bearer <token>`` is read, and only by the API's views: a
token in the query string is refused (it ends up in logs and browser histories),
the site's session cookie means nothing here, and no other page reads the header.

The limits are counted in the cache, which every server process shares in the
distributed set-up (Redis; the embedded default's one process keeps it in memory):
requests in fixed windows of ``API_BURST / API_RATE`` seconds holding ``API_BURST``
requests each, and the open streams of a token.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext

from api.errors import ApiError
from api.models import ApiToken
from api.tokens import token_check

READ = (ApiToken.Scope.READ,)
PLAY = (ApiToken.Scope.PLAY, ApiToken.Scope.BOT)
QUERY_NAMES = ("token", "access_token", "api_token", "bearer")

# A stream place a process lost without closing it (the process died) comes back
# after this long without a stream of the token opening.
STREAM_PLACES_SECONDS = 3600


def _secret_of(request: HttpRequest) -> str:
    if any(name in request.GET for name in QUERY_NAMES):
        raise ApiError(
            400,
            "token_in_query",
            gettext(
                "Tokens are not accepted in the address: send it in the "
                "Authorization header (Authorization: Bearer <token>)."
            ),
        )
    header = request.headers.get("Authorization", "")
    kind, _, secret = header.partition(" ")
    if kind.lower() != "bearer" or not secret.strip():
        raise ApiError(
            401,
            "no_token",
            gettext(
                "This request needs a token: send it in the Authorization header "
                "(Authorization: Bearer <token>)."
            ),
        )
    return secret.strip()


def limit_key(token: ApiToken) -> str:
    """The token's name in the limits' cache keys: its id and the start of its
    digest, so that a token made after another was deleted starts afresh."""
    return f"{token.pk}:{token.digest[:16]}"


def _clock() -> float:
    return time.time()


def _count(key: str, timeout: float) -> int:
    cache.add(key, 0, timeout=math.ceil(timeout))
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=math.ceil(timeout))
        return 1


def rate_take(key: str) -> None:
    """Spend one request of the token's allowance, or ``ApiError`` 429."""
    window = settings.API_BURST / settings.API_RATE
    now = _clock()
    number = int(now // window)
    if _count(f"api:rate:{key}:{number}", window + 1) > settings.API_BURST:
        raise ApiError(
            429,
            "rate_limited",
            gettext("Too many requests with this token; wait a moment and try again."),
            retry_after=max(1, math.ceil((number + 1) * window - now)),
        )


def request_token(request: HttpRequest, scopes: Iterable[str]) -> ApiToken:
    """The request's live token if it holds one of ``scopes``, after its rate check.

    Raises ``ApiError``: 400 for a token in the query string, 401 for none or a
    revoked or unknown one, 403 for a missing scope, 429 over the rate.
    """
    token = token_check(secret=_secret_of(request))
    wanted = set(scopes)
    if not wanted & set(token.scope_list()):
        names = ", ".join(sorted(wanted))
        raise ApiError(
            403,
            "missing_scope",
            gettext("This token may not do that: it needs the scope %(scopes)s.")
            % {"scopes": names},
        )
    rate_take(limit_key(token))
    return token


def stream_open(key: str) -> None:
    """Take one of the token's ``API_STREAMS`` stream places, or ``ApiError`` 429;
    :func:`stream_close` gives it back."""
    name = f"api:streams:{key}"
    if _count(name, STREAM_PLACES_SECONDS) > settings.API_STREAMS:
        stream_close(key)
        raise ApiError(
            429,
            "too_many_streams",
            gettext("This token has as many streams open as it may: close one first."),
            retry_after=5,
        )
    cache.touch(name, STREAM_PLACES_SECONDS)


def stream_close(key: str) -> None:
    with contextlib.suppress(ValueError):  # the count expired meanwhile
        cache.decr(f"api:streams:{key}")
