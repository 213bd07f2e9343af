"""How many embedded games one address may start: ``EMBED_RATE_LIMIT`` an hour.

Every new embedded game makes a guest user and a table, so an address that starts
too many in an hour is refused until the hour is over. Counted in the cache (Redis
in a deployment, so every process shares the count), in fixed hourly windows.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from embed.errors import EmbedError

WINDOW_SECONDS = 3600


def _key(address: str, window: int) -> str:
    digest = hashlib.sha256(address.encode()).hexdigest()[:32]
    return f"embed:new:{digest}:{window}"


def embed_rate_take(*, address: str, now: float | None = None) -> None:
    """Count one new game for ``address``; ``EmbedError`` past the hour's limit.

    A cache that fails lets the game start: the limit guards against abuse, not
    worth refusing every visitor while the cache is down.
    """
    limit: int = settings.EMBED_RATE_LIMIT
    if limit <= 0:
        return
    window = int((now if now is not None else time.time()) // WINDOW_SECONDS)
    key = _key(address, window)
    try:
        cache.add(key, 0, timeout=WINDOW_SECONDS + 60)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=WINDOW_SECONDS + 60)
            count = 1
    except Exception:  # see the docstring
        return
    if count > limit:
        raise EmbedError(
            "rate",
            gettext(
                "Too many new games were started from your network. "
                "Please try again in an hour."
            ),
        )
