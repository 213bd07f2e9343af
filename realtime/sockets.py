"""How many sockets of one kind (table, lobby, presence) a player may hold open.

Each open socket holds one of ``WS_SOCKETS_PER_PLAYER`` numbered slots of its kind
in the cache, shared by every server process (Redis in a deployment): taking a slot
is an atomic ``add`` of its key, so concurrent connects of one player cannot
over-fill. A slot expires ``SLOT_SECONDS`` after its socket last renewed it, which
its consumer does every ``SLOT_RENEW_SECONDS``: the slots of a process that died
free themselves.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger("realtime")

SLOT_SECONDS = 120
SLOT_RENEW_SECONDS = 40
# The close code of a socket over the cap (docs/protocol.md).
TOO_MANY_SOCKETS = 4429


def _key(kind: str, user_id: Any, slot: int) -> str:
    return f"realtime:socket:{kind}:{user_id}:{slot}"


def _take(kind: str, user_id: Any, channel_name: str) -> int | None:
    for slot in range(settings.WS_SOCKETS_PER_PLAYER):
        if cache.add(_key(kind, user_id, slot), channel_name, SLOT_SECONDS):
            return slot
    return None


def _renew(kind: str, user_id: Any, slot: int, channel_name: str) -> None:
    key = _key(kind, user_id, slot)
    if not cache.touch(key, SLOT_SECONDS):
        cache.add(key, channel_name, SLOT_SECONDS)  # lost (a cache restart): again


def _release(kind: str, user_id: Any, slot: int, channel_name: str) -> None:
    key = _key(kind, user_id, slot)
    if cache.get(key) == channel_name:
        cache.delete(key)


async def socket_slot_take(*, kind: str, user_id: Any, channel_name: str) -> int | None:
    """Take a free slot of ``kind`` for this socket; ``None`` when all are held."""
    result: int | None = await sync_to_async(_take, thread_sensitive=False)(
        kind, user_id, channel_name
    )
    return result


async def socket_slot_renew(
    *, kind: str, user_id: Any, slot: int, channel_name: str
) -> None:
    """Keep the socket's slot from expiring."""
    await sync_to_async(_renew, thread_sensitive=False)(
        kind, user_id, slot, channel_name
    )


async def socket_slot_release(
    *, kind: str, user_id: Any, slot: int, channel_name: str
) -> None:
    """Free the socket's slot (unless it expired and another socket took it)."""
    await sync_to_async(_release, thread_sensitive=False)(
        kind, user_id, slot, channel_name
    )


def sockets_open(*, kind: str, user_id: Any) -> bool:
    """Whether the player holds any socket of ``kind`` open, in any server process."""
    keys = [_key(kind, user_id, slot) for slot in range(settings.WS_SOCKETS_PER_PLAYER)]
    return bool(cache.get_many(keys))
