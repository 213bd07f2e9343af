"""How many sockets a player holds open to a table, across every server process.

``seat_presence`` marks a seat connected while this count is above zero; a
player's second tab opening or closing changes nothing anyone sees.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async

from realtime.socket_sets import socket_set_add, socket_set_remove, socket_set_renew


def _key(table_id: int, user_id: int) -> str:
    return f"table:{table_id}:user:{user_id}"


def seat_sockets_count(
    *, table_id: int, user_id: int, socket: str, opened: bool
) -> int:
    """Count ``socket`` in (``opened``) or out; the player's live sockets after."""
    key = _key(table_id, user_id)
    if opened:
        return socket_set_add(key=key, socket=socket)
    return socket_set_remove(key=key, socket=socket)


async def seat_socket_renew(*, table_id: int, user_id: int, socket: str) -> None:
    """Keep an open socket counted (entries of sockets not renewed expire)."""
    await sync_to_async(socket_set_renew, thread_sensitive=False)(
        key=_key(table_id, user_id), socket=socket
    )
