"""The sockets this process serves, so that a stopping server closes each one with a
close frame (1001, "going away") instead of dropping its TCP connection.

Every ``SocketConsumer`` is registered here while it runs. The server's shutdown
path (``config.serve``) calls ``sockets_stopping`` on its event loop: from then on
the process is stopping, and every live socket is sent 1001 and given a moment
for the client's answer, so the page can say the server is restarting and
reconnect (to another process, or to this one once it is back).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

# RFC 6455: the endpoint is going away (a server going down). Only the server may
# send it: the WebSocket library refuses it from an application's close, so the
# server (``config.serve``) lets this one code through.
GOING_AWAY = 1001
# How long a stopping server waits for the clients to answer their close frames.
CLOSE_GRACE_SECONDS = 2.0


class LiveSocket(Protocol):
    async def going_away(self) -> None:
        """Send the close frame (``GOING_AWAY``) and wait, at most
        ``CLOSE_GRACE_SECONDS``, for the client to answer it."""


_live: set[LiveSocket] = set()
_state = {"stopping": False}


def live_add(socket: LiveSocket) -> None:
    _live.add(socket)


def live_discard(socket: LiveSocket) -> None:
    _live.discard(socket)


def server_stopping() -> bool:
    """Whether this process has begun to stop (its sockets are being closed)."""
    return _state["stopping"]


def sockets_stopping() -> asyncio.Future[object]:
    """The process is stopping: close every live socket with ``GOING_AWAY``.

    Call on the event loop that serves the sockets. The stopping mark is set at
    once, before this returns, so a socket whose task the server cancels next
    still sends its close frame (``SocketConsumer`` checks the mark). The returned
    future is done when every client answered or the grace ran out.
    """
    _state["stopping"] = True
    sockets = list(_live)

    async def close_all() -> object:
        return await asyncio.gather(
            *(socket.going_away() for socket in sockets), return_exceptions=True
        )

    return asyncio.ensure_future(close_all())
