"""``/ws/lobby/``: pool counts kept live, Find/Cancel, and the way to one's table.

Thin: parse a frame, await one service call, answer with the player's lobby state or
an error. Seating and counts arrive through ``matchmaking.pools.notify``'s groups. See
docs/protocol.md, "/ws/lobby/".
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.utils.translation import gettext as _

from matchmaking.errors import MatchError
from matchmaking.pools.conduct import cooldown_warning_seen
from matchmaking.pools.notify import LOBBY_GROUP, lobby_user_group
from matchmaking.pools.selectors import lobby_state
from matchmaking.pools.services import (
    search_cancel,
    search_start,
    search_touch,
)
from matchmaking.pools.tasks import search_unwatched_check_later
from realtime.consumers import SocketConsumer
from realtime.db import database_call
from realtime.frames import FrameError, frame_parse, frame_warn
from realtime.ratelimit import TokenBucket

FRAMES_PER_SECOND = 2
FRAME_BURST = 10


class LobbyConsumer(SocketConsumer):
    """Signed-in players only: anonymous sockets are closed with 4401."""

    where = "lobby"

    async def connect(self) -> None:
        await self.accept()  # before the user's session is read: see SocketConsumer
        user = await self.scope_user()
        if user is None or not user.is_authenticated:
            await self.refuse(4401)
            return
        self.user_id: int = user.pk
        self.groups_joined = [LOBBY_GROUP, lobby_user_group(self.user_id)]
        self.bucket = TokenBucket(rate=FRAMES_PER_SECOND, burst=FRAME_BURST)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_call(search_touch)(user_id=self.user_id)
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if hasattr(self, "user_id"):
            # If no lobby page of the player is open a moment from now (a reload
            # reconnects at once), nobody is there to be seated: the search ends.
            await sync_to_async(search_unwatched_check_later, thread_sensitive=False)(
                user_id=self.user_id
            )

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        try:
            if not self.bucket.take():
                raise FrameError("rate_limited", _("Too many messages; slow down."))
            await self._handle(frame_parse(text_data, bytes_data))
        except FrameError as err:
            frame_warn("lobby", err, self.user_id)
            await self.send_json(err.as_frame())
        except MatchError as err:
            await self.send_json(err.as_frame())

    async def _handle(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "search":
            await database_call(search_start)(
                user_id=self.user_id, pool_key=frame.get("pool")
            )
            await self._send_state()
        elif kind == "cancel":
            await database_call(search_cancel)(user_id=self.user_id)
            await self._send_state()
        elif kind == "ping":
            await database_call(search_touch)(user_id=self.user_id)
            await self.send_json({"type": "pong"})
        elif kind == "sync":
            await self._send_state()
        elif kind == "warning_seen":
            await database_call(cooldown_warning_seen)(user_id=self.user_id)
        else:
            raise FrameError("unknown_type", _("Unknown frame type."))

    async def lobby_counts(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "counts", "pools": event["pools"]})

    async def lobby_seated(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "seated", "table": event["table"], "url": event["url"]}
        )

    async def _send_state(self) -> None:
        await self.send_json(await database_call(lobby_state)(user_id=self.user_id))
