"""Record the addresses and devices a player is seen with (RULES.md §5).

Every signed-in page records, at most once per ``ACCOUNT_SIGHTING_REFRESH_SECONDS``
and browser session, the client's address (the proxy's forwarded one behind
``BEHIND_PROXY``, as ``core.requests.client_address`` reads it) and the browser's
device cookie: a long-lived random token the middleware gives every browser,
signed in or not, so that a sign-up is recorded with the token its browser already
had. Both are kept as HMACs under the secret key, never as such; each player keeps
the ``ACCOUNT_SIGHTINGS_KEPT`` most recent of each kind, none older than
``ACCOUNT_SIGHTING_DAYS``. Accounts sharing one are linked (``accounts.links``).

A loopback address is not recorded: it names this machine (a local proxy, a
developer's browser), never a player.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import re
import secrets
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import Sighting
from core.requests import client_address

_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
SESSION_KEY = "accounts_seen"

logger = logging.getLogger(__name__)


def sighting_digest(*, kind: str, value: str) -> str:
    """The stored form of an address or device token: an HMAC under the secret
    key, so equal values match and none can be read back."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def _address_kept(address: str) -> str:
    """The address to record, or "" for none (empty, malformed or loopback)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return ""
    return "" if parsed.is_loopback or parsed.is_unspecified else str(parsed)


def device_token(request: HttpRequest) -> str:
    """The browser's device token, or "" if it sent none (or a malformed one)."""
    raw = request.COOKIES.get(settings.ACCOUNT_DEVICE_COOKIE, "")
    return raw if _TOKEN.fullmatch(raw) else ""


@transaction.atomic
def sightings_record(*, user_id: int, address: str, device: str) -> None:
    """Note that ``user_id`` was seen now from ``address`` and ``device`` (either
    may be ""), then forget what falls outside the player's bounds."""
    now = timezone.now()
    rows = [
        Sighting(
            user_id=user_id,
            kind=kind,
            digest=sighting_digest(kind=kind, value=value),
            first_seen=now,
            last_seen=now,
        )
        for kind, value in (
            (Sighting.Kind.ADDRESS, _address_kept(address)),
            (Sighting.Kind.DEVICE, device),
        )
        if value
    ]
    if not rows:
        return
    Sighting.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["user", "digest"],
        update_fields=["last_seen"],
    )
    _prune(user_id=user_id, now=now)


def _prune(*, user_id: int, now: datetime) -> None:
    mine = Sighting.objects.filter(user_id=user_id)
    cutoff = now - timedelta(days=settings.ACCOUNT_SIGHTING_DAYS)
    mine.filter(last_seen__lt=cutoff).delete()
    kept = settings.ACCOUNT_SIGHTINGS_KEPT
    for kind in Sighting.Kind.values:
        old = list(
            mine.filter(kind=kind)
            .order_by("-last_seen", "-pk")
            .values_list("pk", flat=True)[kept : kept + 100]
        )
        if old:
            Sighting.objects.filter(pk__in=old).delete()


def request_sighting_note(request: HttpRequest, *, device: str) -> None:
    """Record the signed-in player of ``request``, at most once per refresh
    interval for the same address and device: the browser's Django session
    keeps a digest of the last record, which spares a write on every page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not request.session.session_key:
        return  # signed in by no browser session (none to remember the mark in)
    address = client_address(request)
    # The session keeps a digest of what it recorded, never the address itself.
    mark = sighting_digest(kind="mark", value=f"{user.pk}|{address}|{device}")
    seen = request.session.get(SESSION_KEY)
    now = time.time()
    if (
        isinstance(seen, list)
        and len(seen) == 2
        and seen[0] == mark
        and now - float(seen[1]) < settings.ACCOUNT_SIGHTING_REFRESH_SECONDS
    ):
        return
    try:
        sightings_record(user_id=user.pk, address=address, device=device)
    except DatabaseError:
        # The page was served; the next one records the sighting.
        logger.exception("could not record a sighting of user %s", user.pk)
        return
    request.session[SESSION_KEY] = [mark, now]


class SightingMiddleware:
    """Give every browser a device cookie and record signed-in players' sightings.

    After the view, so that a sign-up or log-in is recorded by the request that
    made it. Placed after the session and authentication middleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        device = device_token(request)
        fresh = not device
        if fresh:
            device = secrets.token_urlsafe(24)
        response = self.get_response(request)
        request_sighting_note(request, device=device)
        if fresh:
            response.set_cookie(
                settings.ACCOUNT_DEVICE_COOKIE,
                device,
                max_age=settings.ACCOUNT_DEVICE_COOKIE_DAYS * 24 * 3600,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
