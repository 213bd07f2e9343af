"""Who is online: each signed-in player's open presence sockets, counted in
``realtime.socket_sets`` (Redis when there is one, this process's memory on the
embedded default), so a page's presence socket costs the database nothing.

Two kinds of set: per player, their open presence sockets; and one of every player
with at least one (``ONLINE``), whose size is the count the pages show. Entries
expire unless renewed (each socket pings once a minute), so the sockets of a server
process that died stop counting on their own.
"""

from __future__ import annotations

from django.conf import settings

from realtime.socket_sets import (
    socket_set_add,
    socket_set_count,
    socket_set_member,
    socket_set_remove,
    socket_set_renew,
)

ONLINE = "presence:online"
# How long past its grace a closed player's online entry is kept for the lapse.
LAPSE_MARGIN = 60


def _sockets(user_id: int) -> str:
    return f"presence:user:{user_id}"


def presence_connect(*, user_id: int, channel_name: str) -> tuple[bool, int]:
    """Count a newly open socket: (whether the player just came online, how many
    players are online now). A player whose last page closed less than its grace
    ago never went offline (a page change or a reload). Of two tabs opening at once
    both may report coming online; the count stays right."""
    was_online = socket_set_member(key=ONLINE, socket=str(user_id))
    socket_set_add(key=_sockets(user_id), socket=channel_name)
    online = socket_set_add(key=ONLINE, socket=str(user_id))
    return not was_online, online


def presence_disconnect(*, user_id: int, channel_name: str) -> bool:
    """Forget a closed socket; whether it was the player's last. The player then
    stays online for :func:`offline_grace` seconds: the caller asks
    :func:`presence_lapse` after them."""
    if socket_set_remove(key=_sockets(user_id), socket=channel_name):
        return False
    # Kept past the grace, so that the lapse finds the player still counted
    # (it alone takes them off and says so); a process that dies before its lapse
    # leaves an entry that expires a minute later by itself.
    socket_set_add(
        key=ONLINE, socket=str(user_id), seconds=offline_grace() + LAPSE_MARGIN
    )
    return True


def presence_lapse(*, user_id: int) -> tuple[bool, int]:
    """After a last socket's grace: (whether the player went offline now, how many
    players are online). A player with a page open again stays online."""
    if socket_set_count(key=_sockets(user_id)) or not socket_set_member(
        key=ONLINE, socket=str(user_id)
    ):
        return False, socket_set_count(key=ONLINE)
    return True, socket_set_remove(key=ONLINE, socket=str(user_id))


def offline_grace() -> float:
    """Seconds a player whose last page closed still counts as online: moving to
    another page (close, load, open) fits in them, so friends and the online count
    do not see them leave and come back on every click."""
    return float(settings.PRESENCE_OFFLINE_GRACE_SECONDS)


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
