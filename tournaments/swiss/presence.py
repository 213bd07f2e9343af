"""Who has a Swiss event's page open: at a round's start, only they are paired;
an entrant whose page is closed is absent and scores nothing that round
(docs/tournaments.md, "Swiss events"). Each open socket keeps a cache key alive,
renewed by its pings, as the arenas' pages do."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

PRESENCE_SECONDS = 90  # the socket renews it every 40 s (realtime.sockets)


def _key(event_id: int, user_id: int) -> str:
    return f"swiss:{event_id}:here:{user_id}"


def presence_mark(*, event_id: int, user_id: int) -> None:
    cache.set(_key(event_id, user_id), 1, PRESENCE_SECONDS)


def presence_clear(*, event_id: int, user_id: int) -> None:
    cache.delete(_key(event_id, user_id))


def present_among(*, event_id: int, user_ids: Iterable[int]) -> set[int]:
    """The players of ``user_ids`` who have the event's page open now."""
    keys = {_key(event_id, u): u for u in user_ids}
    if not keys:
        return set()
    return {keys[k] for k in cache.get_many(list(keys))}
