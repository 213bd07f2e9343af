"""The live sockets of one subject (a player at a table), shared by every process.

A subject's sockets may be served by several daphne processes, so their count lives
in Redis when there is one (a sorted set per subject: each member a socket's channel
name, scored with the time it expires), and in this process's memory on the
embedded default, where one process serves every socket. A socket's entry expires
``SOCKET_SECONDS`` after it was added or last renewed (its consumer renews it every
``realtime.sockets.SLOT_RENEW_SECONDS``), so the sockets of a process that died stop
counting on their own. Each call answers how many live sockets the subject has
after it, so a caller can act only when the count crosses zero.
"""

from __future__ import annotations

import threading
import time
from functools import cache

import redis
from django.conf import settings

SOCKET_SECONDS = 120

_local: dict[str, dict[str, float]] = {}
_local_lock = threading.Lock()


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def _redis_key(key: str) -> str:
    return f"{settings.DEPLOYMENT_PREFIX}:sockets:{key}"


def _update(
    key: str, socket: str | None, *, present: bool, seconds: float = SOCKET_SECONDS
) -> int:
    """Drop expired members, add or remove ``socket`` (None: neither, a count);
    an added one expires in ``seconds``."""
    now = time.time()
    if settings.REDIS_URL:
        name = _redis_key(key)
        if socket is None:
            return int(_client(settings.REDIS_URL).zcount(name, now, "+inf"))
        pipe = _client(settings.REDIS_URL).pipeline(transaction=True)
        pipe.zremrangebyscore(name, "-inf", now)
        if present:
            pipe.zadd(name, {socket: now + seconds})
        else:
            pipe.zrem(name, socket)
        pipe.zcard(name)
        pipe.expire(name, max(SOCKET_SECONDS, int(seconds) + 1))
        return int(pipe.execute()[-2])
    with _local_lock:
        members = {s: t for s, t in _local.get(key, {}).items() if t > now}
        if socket is None:
            pass
        elif present:
            members[socket] = now + seconds
        else:
            members.pop(socket, None)
        if members:
            _local[key] = members
        else:
            _local.pop(key, None)
        return len(members)


def socket_set_add(*, key: str, socket: str, seconds: float = SOCKET_SECONDS) -> int:
    """Count ``socket`` as live for ``key`` for ``seconds`` (until renewed); the
    live sockets of ``key`` after."""
    return _update(key, socket, present=True, seconds=seconds)


def socket_set_member(*, key: str, socket: str) -> bool:
    """Whether ``socket`` is live for ``key`` (one read)."""
    if settings.REDIS_URL:
        score = _client(settings.REDIS_URL).zscore(_redis_key(key), socket)
        return score is not None and float(score) > time.time()
    with _local_lock:
        return _local.get(key, {}).get(socket, 0.0) > time.time()


def socket_set_remove(*, key: str, socket: str) -> int:
    """``socket`` of ``key`` has closed; the live sockets of ``key`` left."""
    return _update(key, socket, present=False)


def socket_set_count(*, key: str) -> int:
    """The live sockets of ``key`` (one read: nothing is written)."""
    return _update(key, None, present=False)


def socket_set_renew(*, key: str, socket: str) -> None:
    """Keep a live socket from expiring (and count it again if its entry was lost,
    a Redis restart)."""
    _update(key, socket, present=True)


def socket_sets_forget() -> None:
    """Drop this process's own sets (tests: table ids repeat after a rollback)."""
    with _local_lock:
        _local.clear()
