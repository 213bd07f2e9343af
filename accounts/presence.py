"""Who is online: each signed-in player's open presence sockets, counted in
``realtime.socket_sets`` (Redis when there is one, this process's memory on the
embedded default), so a page's presence socket costs the database nothing.

Two kinds of set: per player, their open presence sockets; and one of every player
with at least one (``ONLINE``), whose size is the count the pages show. Entries
expire unless renewed (each socket pings once a minute), so the sockets of a server
process that died stop counting on their own.
"""

from __future__ import annotations

from realtime.socket_sets import (
    socket_set_add,
    socket_set_count,
    socket_set_remove,
    socket_set_renew,
)

ONLINE = "presence:online"


def _sockets(user_id: int) -> str:
    return f"presence:user:{user_id}"


def presence_connect(*, user_id: int, channel_name: str) -> tuple[bool, int]:
    """Count a newly open socket: (whether the player just came online, how many
    players are online now). Of two tabs opening at once both may report coming
    online; the count stays right."""
    sockets = socket_set_add(key=_sockets(user_id), socket=channel_name)
    online = socket_set_add(key=ONLINE, socket=str(user_id))
    return sockets == 1, online


def presence_disconnect(*, user_id: int, channel_name: str) -> tuple[bool, int]:
    """Forget a closed socket: (whether the player just went offline, how many
    players are online now)."""
    if socket_set_remove(key=_sockets(user_id), socket=channel_name):
        return False, socket_set_count(key=ONLINE)
    return True, socket_set_remove(key=ONLINE, socket=str(user_id))


def presence_touch(*, user_id: int, channel_name: str) -> int:
    """A socket's ping keeps it and its player counted; how many are online."""
    socket_set_renew(key=_sockets(user_id), socket=channel_name)
    return socket_set_add(key=ONLINE, socket=str(user_id))


def online_count() -> int:
    """Players with at least one live presence socket."""
    return socket_set_count(key=ONLINE)


def user_online(user_id: int) -> bool:
    """Whether the player has a page open anywhere."""
    return socket_set_count(key=_sockets(user_id)) > 0
