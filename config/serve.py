"""``python -m config.serve [daphne options] config.asgi:application``: daphne with
the platform's WebSocket frame cap.

daphne accepts messages up to 1 MiB by default and, past that, drops the TCP
connection before a close frame gets out. Our consumers refuse anything over
``WS_MAX_FRAME_BYTES`` (8 KB) with a readable ``too_large`` error; a frame far past
that (``FRAME_CAP_FACTOR`` times the limit) is not worth reading at all, so autobahn
closes the socket with 1009 ("message too big") as soon as the frame's header
announces it. autobahn "fails" a connection by dropping TCP unless told otherwise
(``failByDrop``), so ``main`` turns that off: a failed connection gets its
close frame and code. A client that offers permessage-deflate (every browser) gets
its frames compressed (``DEFLATE_WINDOW_BITS``). With ``BEHIND_PROXY`` on, daphne
takes the client's address from the proxy's X-Forwarded-For (``--proxy-headers``),
as Django and allauth do (config/settings.py). Options given on the command line
win. ``make run``, ``platform/Procfile``, the systemd unit and the tests' servers
all start daphne this way.

SIGTERM (or Ctrl-C) stops the process within ``STOP_SECONDS``: every WebSocket is
sent a close frame with 1001 ("going away": the pages say the server is restarting
and reconnect), the embedded worker and beat (``config.embedded_worker``) are asked to
stop, and whatever thread is still busy then (a task or request waiting on a
locked database, which the interpreter would otherwise wait for at exit) is not
waited for: the process exits.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from typing import Any

from autobahn.websocket.compress import (
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketProtocol

from realtime.live import GOING_AWAY, sockets_stopping

FRAME_CAP_FACTOR = 16
# A supervisor (systemd, honcho, a container runtime) kills after 10 s by default.
STOP_SECONDS = 8.0

# permessage-deflate keeps each socket's compression context between frames, so the
# keys a state patch repeats frame after frame cost little. zlib's defaults hold about
# 256 KiB for a socket's compressor and 32 KiB for its decompressor; a 2 KiB window (a
# few patches) both ways, where the client's offer lets the server ask for it (every
# browser's does), and memory level 4 hold about 16 and 2 KiB, which thousands of
# sockets per process can afford.
DEFLATE_WINDOW_BITS = 11
DEFLATE_MEM_LEVEL = 4

logger = logging.getLogger(__name__)


def _settings() -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    return settings


def frame_cap() -> int:
    """The largest WebSocket message or frame daphne reads, in bytes."""
    return int(_settings().WS_MAX_FRAME_BYTES) * FRAME_CAP_FACTOR


def daphne_args(argv: list[str]) -> list[str]:
    """``argv`` with the frame cap, and the proxy headers behind a proxy, added
    unless it sets them itself."""
    cap = str(frame_cap())
    extra: list[str] = []
    for option in ("--websocket-max-message-size", "--websocket-max-frame-size"):
        if not any(a == option or a.startswith(option + "=") for a in argv):
            extra += [option, cap]
    if _settings().BEHIND_PROXY and "--proxy-headers" not in argv:
        extra.append("--proxy-headers")
    return extra + argv


def main() -> None:
    from twisted.internet import reactor

    command = CommandLineInterface()
    # ``run`` builds the server and its factory, then runs the reactor: the
    # factory is there by the time the reactor starts.
    reactor.callWhenRunning(lambda: _tune(command.server))
    # The interface's stub declares no ``self``, shifting the arguments for mypy.
    reactor_any: Any = reactor
    reactor_any.addSystemEventTrigger("before", "shutdown", _sockets_close)
    reactor_any.addSystemEventTrigger("before", "shutdown", _stopping)
    command.run(daphne_args(sys.argv[1:]))


def _sockets_close() -> Any:
    """Close every open socket with 1001 (``realtime.live``); the shutdown goes on
    once the clients answered or the grace ran out. Registered before daphne's
    own trigger, which cancels the applications: the close frames go first."""
    from twisted.internet.defer import Deferred

    return Deferred.fromFuture(sockets_stopping())


def _stopping() -> None:
    """The reactor is stopping: stop the background work, and exit for certain
    ``STOP_SECONDS`` from now even if a thread is stuck (daemon threads are not
    waited for, but the interpreter joins the thread pools' threads at exit)."""
    threading.Thread(target=_exit_later, name="stop-deadline", daemon=True).start()
    threading.Thread(target=_background_stop, name="stop-worker", daemon=True).start()


def _background_stop() -> None:
    from config.embedded_worker import embedded_worker_stop

    try:
        embedded_worker_stop()
    except Exception:
        logger.exception("the embedded worker did not stop cleanly")


def _exit_later() -> None:
    threading.Event().wait(STOP_SECONDS)
    logger.warning("still busy %.0f s after the stop: exiting now", STOP_SECONDS)
    logging.shutdown()
    os._exit(0)


def _tune(server: Any) -> None:
    """A failed WebSocket connection closes with its code instead of dropping TCP,
    frames are compressed for the clients that offer it, and a stopping server
    closes its sockets with 1001."""
    server.ws_factory.setProtocolOptions(
        failByDrop=False, perMessageCompressionAccept=_deflate_accept
    )
    server.ws_factory.protocol = _GoingAwayProtocol


def _deflate_accept(offers: list[Any]) -> PerMessageDeflateOfferAccept | None:
    """Accept a client's permessage-deflate offer, with our window and memory."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(  # type: ignore[no-untyped-call]
                offer,
                request_max_window_bits=(
                    DEFLATE_WINDOW_BITS if offer.accept_max_window_bits else 0
                ),
                window_bits=DEFLATE_WINDOW_BITS,
                mem_level=DEFLATE_MEM_LEVEL,
            )
    return None


class _GoingAwayProtocol(WebSocketProtocol):  # type: ignore[misc]
    """daphne's protocol, letting the application close with 1001 ("going
    away"), which autobahn's ``sendClose`` refuses from applications (it allows
    1000 and 3000-4999): only ``realtime.live`` sends it, as the server stops."""

    def serverClose(self, code: int | None = None) -> None:
        if code == GOING_AWAY:
            self.sendCloseFrame(code=code, isReply=False)
            return
        super().serverClose(code=code)


if __name__ == "__main__":
    main()
