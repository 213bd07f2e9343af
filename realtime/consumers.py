"""The base of the platform's WebSocket consumers.

What every socket gets from it:

- the handshake answered first: ``websocket_connect`` accepts before anything is
  read for the socket (its user, its slot, the consumer's own ``connect``), so a
  slow database shows as a page waiting for its first frame, never as a handshake
  daphne drops after 5 s; the user is loaded then (``scope_user``, see
  ``realtime.auth``);
- a refusal the browser can read: ``refuse(code)`` closes the accepted socket with
  the code (4401, 4403, 4404), because a close before ``accept`` reaches the client
  as a bare HTTP 403;
- a socket opened while the channel layer (Redis) is down is told so in an
  ``error`` frame (code ``unavailable``) and closed with 4500; one whose opening
  failed in any other way is closed with 4500 too;
- a stopping server closes every socket with 1001 (``realtime.live``);
- no exception ever ends a socket: one that escapes a handler is answered with an
  ``error`` frame (code ``internal``) and the connection stays; its traceback is
  logged once per kind and place, later ones as one line;
- ``disconnect`` runs however the socket ends, and ``StopConsumer`` follows even if
  it fails;
- a socket that is already closed (the server closed it with 1009, the tab went
  away) is a normal event: whatever is still sent to it (a pushed frame, a reply,
  an error frame) is dropped without a traceback, once the server says it is gone;
- the outbox's numbered frames (``realtime.outbox``), each ``seq`` once and in order
  (``outbox_send`` sends each);
- a cap on the sockets one player holds open of each kind (``where``: table,
  lobby, presence), ``WS_SOCKETS_PER_PLAYER``: the one over it is accepted, told
  why in an ``error`` frame (code ``too_many_sockets``), and closed with 4429
  (``realtime.sockets``) before its consumer's ``connect`` runs;
- one intake for the client's frames: ``player`` accepts, loads the user and
  closes an anonymous socket with 4401; ``receive`` spends a token of the socket's
  allowance (``frames_per_second``, ``frame_burst``), parses the frame
  (``realtime.frames``) and hands it to the consumer's ``frame_received``; a bad
  frame, one over the allowance, or a refusal of the consumer's own domain
  (``frame_refusals``) is answered with an ``error`` frame and changes nothing;
- every handler runs in the connection's language (``scope["language"]``, set by the
  ASGI stack from the language cookie or ``Accept-Language``), so error frames and
  other messages reach each player in their own language.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from prometheus_client import Counter

from core.refusals import Refusal
from realtime.auth import USER_RESOLVER
from realtime.db import database_busy
from realtime.frames import FrameError, frame_parse, frame_warn
from realtime.live import (
    CLOSE_GRACE_SECONDS,
    GOING_AWAY,
    live_add,
    live_discard,
    server_stopping,
)
from realtime.ratelimit import TokenBucket
from realtime.sockets import (
    SLOT_RENEW_SECONDS,
    TOO_MANY_SOCKETS,
    socket_slot_release,
    socket_slot_renew,
    socket_slot_take,
)

logger = logging.getLogger("realtime")
ERRORS = Counter(
    "dominoes_socket_errors_total", "Error frames sent, by code.", ["code"]
)

# How long a frame that arrives ahead of a missing one waits for it (two commits of
# one subject may reach the layer in either order; the window is milliseconds).
GAP_WAIT = 0.25
# The close code of a socket whose opening failed on our side. Not 1011: a server
# may only close with 1000 or 3000-4999 (daphne refuses the rest with a traceback).
SERVER_FAULT = 4500

# The close code of a socket that needs a signed-in player and has none.
NOT_SIGNED_IN = 4401

# Seconds a client waits before sending again when the database was busy.
BUSY_RETRY_SECONDS = 2

# A close frame's reason is at most 123 bytes of UTF-8.
CLOSE_REASON_BYTES = 123

_tracebacks_logged: set[tuple[str, str]] = set()

# What the server raises when a message goes to a socket it has closed: daphne's
# autobahn protocol raises ``Disconnected``.
SOCKET_GONE: tuple[type[Exception], ...] = (Disconnected,)


def close_reason(message: str) -> str:
    """``message`` cut to fit a close frame, on a character boundary."""
    data = message.encode("utf-8")
    if len(data) <= CLOSE_REASON_BYTES:
        return message
    return data[: CLOSE_REASON_BYTES - 3].decode("utf-8", "ignore") + "..."


def internal_error_log(where: str, exc: BaseException) -> None:
    """Log an unexpected exception: the first of its kind here with a traceback."""
    kind = (where, type(exc).__name__)
    if kind in _tracebacks_logged:
        logger.error("%s: %s again: %s", where, kind[1], exc)
        return
    _tracebacks_logged.add(kind)
    logger.error("%s: unexpected %s", where, kind[1], exc_info=exc)


class SocketConsumer(AsyncWebsocketConsumer):
    """An ``AsyncWebsocketConsumer`` with the guarantees above.

    Channels' ``dispatch`` runs ``close_old_connections`` before every message, in a
    hop to its single sync thread and back: for each frame from the browser and each
    pushed move. Our consumers do database work only through ``database_call`` (or
    ``database_sync_to_async``), which checks the connection of its own thread before
    and after each call, so the hop is skipped here (about 5% of a daphne process's
    time at 100 busy tables in ``bench/ws_load.py``).
    """

    # Names the consumer in log lines, and the kind of socket a player's cap counts.
    where = "socket"
    # The consumer uses only its user's id and name: they may come from the cached
    # identity, with no database statement (``realtime.auth``).
    identity_only = False
    # The frames a client may send: this many a second on average, up to
    # ``frame_burst`` at once (``TokenBucket``); more are refused, one by one.
    frames_per_second: float = 1
    frame_burst = 5
    # The consumer's own refusals ``frame_received`` may raise (``TableError``…):
    # answered with their ``error`` frame, as a bad frame is.
    frame_refusals: tuple[type[Refusal], ...] = ()
    # Whether the connection's error frames carry its ``seq`` (the table's do).
    errors_numbered = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seq = 0  # the last numbered frame this connection has had
        # Its subject in the packed frames of its group (``realtime.outbox``): it
        # takes that subject's frame of each and nothing else; None takes none.
        self.subject: str | None = None
        self._ahead: dict[int, str] = {}  # frames waiting for a missing one
        self._gap_timer: asyncio.TimerHandle | None = None
        self._accepted = False
        self._slot: tuple[Any, int] | None = None  # (user id, slot) held in the cap
        self._slot_timer: asyncio.TimerHandle | None = None
        self._gone = False  # the socket is closed: nothing more can reach it
        self._closing = False  # a close frame has been sent
        self._ended = asyncio.Event()  # the client's side is closed too
        self._layer_failure: Exception | None = None
        self.user_id: Any = None  # the signed-in player (``player``)
        self.bucket: TokenBucket | None = None  # None until the socket is served

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' ``AsyncConsumer.__call__``, except that a channel layer that
        cannot make this socket's channel (Redis down) does not end the consumer
        before the handshake is answered: ``websocket_connect`` reports it."""

        async def send_unless_gone(message: dict[str, Any]) -> None:
            if self._gone:
                return
            if message["type"] == "websocket.close":
                if self._closing:
                    return
                self._closing = True
            try:
                await send(message)
            except SOCKET_GONE:
                self._gone = True

        self.scope = scope
        self.base_send = send_unless_gone
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources: list[Callable[[], Awaitable[Any]]] = [receive]
        if self.channel_layer is not None:
            try:
                self.channel_name = await self.channel_layer.new_channel()
            except Exception as exc:  # told to the client once it is accepted
                self._layer_failure = exc
                self.channel_name = ""
            else:
                sources.append(
                    functools.partial(self.channel_layer.receive, self.channel_name)
                )
        live_add(self)
        try:
            await await_many_dispatch(sources, self.dispatch)
        except StopConsumer:
            pass
        except asyncio.CancelledError:
            # The server cancels every application as it stops: the client still
            # gets its close frame.
            if server_stopping():
                await self._going_away_from(receive)
            raise
        finally:
            live_discard(self)
            self._ended.set()

    async def going_away(self) -> None:
        """The server is stopping: close with 1001 and wait (a moment at most)
        for the client's answer (``realtime.live``)."""
        await self.close(code=GOING_AWAY)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ended.wait(), CLOSE_GRACE_SECONDS)

    async def _going_away_from(self, receive: Callable[[], Awaitable[Any]]) -> None:
        """``going_away`` for a consumer whose dispatch loop is cancelled: read
        the client's answer from the server directly."""
        await self.close(code=GOING_AWAY)

        async def answered() -> None:
            while (await receive())["type"] != "websocket.disconnect":
                pass

        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(answered(), CLOSE_GRACE_SECONDS)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        with translation.override(self.scope.get("language", settings.LANGUAGE_CODE)):
            try:
                await handler(message)
            except (StopConsumer, asyncio.CancelledError):
                raise
            except Exception as exc:  # no exception may end a socket
                await self._fault(message, exc)

    async def _fault(self, message: dict[str, Any], exc: Exception) -> None:
        if database_busy(exc):
            await self._busy(message)
            return
        internal_error_log(f"{self.where} {message['type']}", exc)
        if message["type"] == "websocket.connect":
            await self.refuse(SERVER_FAULT)
            return
        fault = Refusal(
            "internal", gettext("Something went wrong on our side. Please try again.")
        )
        await self.send_json(fault.as_frame(seq=self.seq))

    async def _busy(self, message: dict[str, Any]) -> None:
        """No database connection was free: say so, and when to try again.

        A frame changed nothing and may be sent again; a socket being opened is
        closed with ``SERVER_FAULT`` after the frame, and the page reconnects.
        """
        logger.warning("%s %s: the database is busy", self.where, message["type"])
        if not self._accepted:
            await self.accept()
        busy = Refusal("busy", gettext("The server is busy, try again in a moment."))
        await self.send_json(busy.as_frame(retry=BUSY_RETRY_SECONDS, seq=self.seq))
        if message["type"] == "websocket.connect":
            await self.close(code=SERVER_FAULT)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        await self.accept()
        if self._layer_failure is not None:
            await self._layer_down()
            return
        user = await self.scope_user()
        if (
            user is not None
            and user.is_authenticated
            and not await self._slot_take(user.pk)
        ):
            await self._refuse_too_many()
            return
        await super().websocket_connect(message)

    # --- the client's frames

    async def player(self) -> Any:
        """The socket's signed-in user, or ``None`` once an anonymous socket is
        closed with 4401; called first thing in a consumer's ``connect``. Accepts
        before the session is read (see above) and opens the frame allowance."""
        await self.accept()
        user = await self.scope_user()
        if user is None or not user.is_authenticated:
            await self.refuse(NOT_SIGNED_IN)
            return None
        self.user_id = user.pk
        self.bucket = TokenBucket(rate=self.frames_per_second, burst=self.frame_burst)
        return user

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        if self.bucket is None:
            return  # refused or still opening: nothing here reads frames
        try:
            if not self.bucket.take():
                raise FrameError(
                    "rate_limited", gettext("Too many messages; slow down.")
                )
            await self.frame_received(frame_parse(text_data, bytes_data))
        except FrameError as err:
            frame_warn(self.where, err, self.user_id)
            await self.refusal_send(err)
        except self.frame_refusals as err:
            await self.refusal_send(err)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        """One parsed frame of the client (an object with a string ``type``);
        raise ``FrameError`` or one of ``frame_refusals`` to refuse it."""
        raise FrameError("unknown_type", gettext("Unknown frame type."))

    async def refusal_send(self, refusal: Refusal) -> None:
        if self.errors_numbered:
            await self.send_json(refusal.as_frame(seq=self.seq))
        else:
            await self.send_json(refusal.as_frame())

    async def scope_user(self) -> Any:
        """The socket's user (``AnonymousUser`` when not signed in, ``None`` with
        no authentication middleware), loaded from the session on the first call
        (``realtime.auth``; from the cached identity if ``identity_only``): call it
        after ``accept``."""
        resolve = self.scope.get(USER_RESOLVER)
        if resolve is not None:
            return await resolve(cached=self.identity_only)
        return self.scope.get("user")

    async def _layer_down(self) -> None:
        """The channel layer could not make this socket's channel: nothing could
        reach the socket, so say so and close; the page reconnects."""
        exc = self._layer_failure
        logger.warning("%s connect: the channel layer is down: %r", self.where, exc)
        down = Refusal(
            "unavailable",
            gettext("Live updates are unavailable for a moment. Reconnecting…"),
        )
        await self.send_json(down.as_frame())
        await self.close(code=SERVER_FAULT)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self._gone = True
        if self._layer_failure is not None:
            raise StopConsumer()  # the consumer's ``connect`` never ran
        try:
            await super().websocket_disconnect(message)
        except StopConsumer:
            raise
        except Exception as exc:  # the consumer must still stop
            internal_error_log(f"{self.where} disconnect", exc)
        finally:
            await self._slot_release()
        raise StopConsumer()

    # --- the cap on a player's sockets of this kind

    async def _slot_take(self, user_id: Any) -> bool:
        """Hold one of the player's slots; whether this socket may be served.

        A cache that fails lets the socket in: the cap guards against a player's
        runaway tabs, not worth refusing everyone while the cache is down.
        """
        try:
            slot = await socket_slot_take(
                kind=self.where, user_id=user_id, channel_name=self.channel_name
            )
        except Exception as exc:
            internal_error_log(f"{self.where} socket cap", exc)
            return True
        if slot is None:
            return False
        self._slot = (user_id, slot)
        self._slot_renew_later()
        return True

    def _slot_renew_later(self) -> None:
        loop = asyncio.get_running_loop()
        self._slot_timer = loop.call_later(
            SLOT_RENEW_SECONDS, lambda: loop.create_task(self._slot_renew())
        )

    async def _slot_renew(self) -> None:
        if self._slot is None:
            return
        user_id, slot = self._slot
        try:
            await socket_slot_renew(
                kind=self.where,
                user_id=user_id,
                slot=slot,
                channel_name=self.channel_name,
            )
        except Exception as exc:  # the next renewal tries again
            internal_error_log(f"{self.where} socket cap", exc)
        try:
            await self.renew()
        except Exception as exc:  # the next renewal tries again
            internal_error_log(f"{self.where} renew", exc)
        if self._slot is not None:
            self._slot_renew_later()

    async def renew(self) -> None:
        """Keep what this socket holds in shared stores from expiring; called with
        the slot's renewal (every ``SLOT_RENEW_SECONDS``)."""

    async def _slot_release(self) -> None:
        if self._slot_timer is not None:
            self._slot_timer.cancel()
            self._slot_timer = None
        if self._slot is None:
            return
        (user_id, slot), self._slot = self._slot, None
        try:
            await socket_slot_release(
                kind=self.where,
                user_id=user_id,
                slot=slot,
                channel_name=self.channel_name,
            )
        except Exception as exc:  # the slot expires on its own
            internal_error_log(f"{self.where} socket cap", exc)

    async def _refuse_too_many(self) -> None:
        message = gettext(
            "You have too many pages like this one open. Close some of them, "
            "then reload this page."
        )
        await self.accept()
        await self.send_json(Refusal("too_many_sockets", message).as_frame())
        await self.close(code=TOO_MANY_SOCKETS, reason=close_reason(message))

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        """Answer the handshake (once: ``websocket_connect`` has done it before the
        consumer's ``connect`` runs)."""
        if self._accepted:
            return
        self._accepted = True
        await super().accept(subprotocol=subprotocol, headers=headers)

    async def refuse(self, code: int) -> None:
        """Close with ``code`` so the client sees it (accepting first if not
        done: a close before ``accept`` reaches the client as HTTP 403)."""
        self.bucket = None  # a refused socket reads no more frames
        if not self._accepted:
            await self.accept()
        await self.close(code=code)

    async def send_json(self, data: dict[str, Any]) -> None:
        if data.get("type") == "error":
            ERRORS.labels(str(data.get("code"))).inc()
        await self.send(text_data=json.dumps(data))

    # --- numbered frames

    def seq_seen(self, seq: int) -> None:
        """This connection was sent the complete state at ``seq`` directly."""
        self.seq = max(self.seq, seq)
        for old in [s for s in self._ahead if s <= self.seq]:
            del self._ahead[old]

    async def outbox_frames(self, event: dict[str, Any]) -> None:
        """A commit's numbered frames from ``realtime.outbox``, already serialised,
        one per subject of the group: this connection's own, if there is one."""
        text = event["texts"].get(self.subject) if self.subject else None
        if text is None:
            return  # nothing for this connection in that commit
        seq: int = event["seq"]
        if seq <= self.seq:
            return  # sent already (connect, sync) or older than what was sent
        self._ahead[seq] = text
        await self._ahead_flush()
        if self._ahead and self._gap_timer is None:
            loop = asyncio.get_running_loop()
            self._gap_timer = loop.call_later(
                GAP_WAIT, lambda: loop.create_task(self._gap_skip())
            )

    async def outbox_send(self, text: str) -> None:
        """Send the next numbered frame, in order; a consumer may send it in a
        shorter form (``games.consumers`` sends a table's state as a patch)."""
        await self.send(text_data=text)

    async def _ahead_flush(self) -> None:
        while self.seq + 1 in self._ahead:
            self.seq += 1
            await self.outbox_send(self._ahead.pop(self.seq))
        if not self._ahead and self._gap_timer is not None:
            self._gap_timer.cancel()
            self._gap_timer = None

    async def _gap_skip(self) -> None:
        """The missing frame did not come: send what is here (the client resyncs)."""
        self._gap_timer = None
        if not self._ahead:
            return
        self.seq = min(self._ahead) - 1
        try:
            await self._ahead_flush()
        except Exception as exc:  # a closed socket: nothing to tell
            internal_error_log(f"{self.where} gap", exc)
