"""Who has an arena's page open: only they are paired (docs/tournaments.md).

A player who finished a game is not paired again until they come back to the
arena's page, so nobody is seated at a table they do not see (and loses it on the
clock). Each open arena socket keeps a cache key alive (shared by every server
process: Redis in a deployment); the pairing reads them all in one call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.cache import cache

PRESENCE_SECONDS = 90  # the socket renews it every 40 s (realtime.sockets)


def _key(arena_id: int, user_id: int) -> str:
    return f"arena:{arena_id}:here:{user_id}"


def presence_mark(*, arena_id: int, user_id: int) -> None:
    cache.set(_key(arena_id, user_id), 1, PRESENCE_SECONDS)


def presence_clear(*, arena_id: int, user_id: int) -> None:
    cache.delete(_key(arena_id, user_id))


def present_among(*, arena_id: int, user_ids: Iterable[int]) -> set[int]:
    """The players of ``user_ids`` who have the arena's page open now."""
    keys = {_key(arena_id, u): u for u in user_ids}
    if not keys:
        return set()
    return {keys[k] for k in cache.get_many(list(keys))}


def present_at_least(*, arena_id: int, user_ids: Sequence[int], count: int) -> bool:
    """Whether at least ``count`` of ``user_ids`` have the arena's page open:
    ``present_among`` read a few keys at a time, stopping as soon as it knows (the
    pairing's check before it takes the arena's lock, where most of a thousand
    players are usually here)."""
    if count <= 0:
        return True
    found = 0
    step = max(4 * count, 32)
    for start in range(0, len(user_ids), step):
        found += len(
            present_among(arena_id=arena_id, user_ids=user_ids[start : start + step])
        )
        if found >= count:
            return True
    return False
