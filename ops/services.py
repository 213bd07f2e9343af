"""Operator actions: schedule a beacon and read whether it fired."""

import secrets

from django.core.cache import cache

from ops.tasks import BEACON_TTL, beacon_fire, beacon_key


def beacon_schedule(*, countdown: float) -> str:
    """Schedule the beacon ``countdown`` seconds from now; return its token."""
    token = secrets.token_hex(8)
    cache.set(beacon_key(token), "scheduled", BEACON_TTL)
    beacon_fire.apply_async((token,), countdown=countdown)
    return token


def beacon_state(*, token: str) -> str | None:
    """``scheduled``, ``fired``, or None for an unknown token."""
    state: str | None = cache.get(beacon_key(token))
    return state
