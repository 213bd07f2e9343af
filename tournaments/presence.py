"""Who has an event's page open (an arena's, a Swiss event's): only they are
paired (docs/tournaments.md). Each open socket of the page keeps a cache key alive
(shared by every server process: Redis in a deployment), renewed by its pings;
the pairing reads them all in one call."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

PRESENCE_SECONDS = 90  # the socket renews it every 40 s (realtime.sockets)


def _key(kind: str, event_id: int, user_id: int) -> str:
    return f"{kind}:{event_id}:here:{user_id}"


def page_mark(*, kind: str, event_id: int, user_id: int) -> None:
    cache.set(_key(kind, event_id, user_id), 1, PRESENCE_SECONDS)


def page_clear(*, kind: str, event_id: int, user_id: int) -> None:
    cache.delete(_key(kind, event_id, user_id))


def page_present_among(
    *, kind: str, event_id: int, user_ids: Iterable[int]
) -> set[int]:
    """The players of ``user_ids`` who have the event's page open now."""
    keys = {_key(kind, event_id, u): u for u in user_ids}
    if not keys:
        return set()
    return {keys[k] for k in cache.get_many(list(keys))}
