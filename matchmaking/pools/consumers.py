"""``/ws/lobby/``: pool counts kept live, Find/Cancel, open tables (seeks), and the
way to one's table.

Thin: parse a frame, await one service call, answer with the player's lobby state or
an error. Seating and counts arrive through ``matchmaking.pools.notify``'s groups. See
docs/protocol.md, "/ws/lobby/".
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async

from accounts.bots import bot_socket_refuse
from matchmaking.errors import MatchError
from matchmaking.pools.conduct import cooldown_warning_seen
from matchmaking.pools.config import DEFAULT_SPEED
from matchmaking.pools.notify import LOBBY_GROUP, lobby_user_group
from matchmaking.pools.seek_selectors import seeks_list
from matchmaking.pools.seeks import (
    seek_join,
    seek_leave,
    seek_open,
    seek_start,
    seek_touch,
)
from matchmaking.pools.selectors import lobby_state
from matchmaking.pools.services import (
    search_cancel,
    search_start,
    search_touch,
)
from matchmaking.pools.tasks import search_unwatched_check_later
from realtime.consumers import SocketConsumer
from realtime.db import database_call


class LobbyConsumer(SocketConsumer):
    """Signed-in players only: anonymous sockets are closed with 4401."""

    where = "lobby"
    frames_per_second = 2
    frame_burst = 10
    frame_refusals = (MatchError,)

    async def connect(self) -> None:
        if await self.player() is None:
            return
        if await bot_socket_refuse(self, user_id=self.user_id):  # plays by the API
            return
        self.groups_joined = [LOBBY_GROUP, lobby_user_group(self.user_id)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_call(search_touch)(user_id=self.user_id)
        await database_call(seek_touch)(user_id=self.user_id)
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.user_id is not None:
            # If no lobby page of the player is open a moment from now (a reload
            # reconnects at once), nobody is there to be seated: the search ends,
            # and so does the player's place at an open table (its owner's expires).
            await sync_to_async(search_unwatched_check_later, thread_sensitive=False)(
                user_id=self.user_id
            )

    async def frame_received(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "search":
            await database_call(search_start)(
                user_id=self.user_id,
                pool_key=frame.get("pool"),
                speed=frame.get("speed", DEFAULT_SPEED),
            )
            await self._send_state()
        elif kind == "seek_open":
            await database_call(seek_open)(
                user_id=self.user_id,
                pool_key=frame.get("pool"),
                speed=frame.get("speed", DEFAULT_SPEED),
                rated=frame.get("rated", True),
                stake=frame.get("stake", 0),
            )
            await self._send_state()
        elif kind == "seek_join":
            await database_call(seek_join)(
                user_id=self.user_id, seek_id=frame.get("seek")
            )
            await self._send_state()
        elif kind == "seek_start":
            await database_call(seek_start)(
                user_id=self.user_id, seek_id=frame.get("seek")
            )
            await self._send_state()
        elif kind == "seek_cancel":
            await database_call(seek_leave)(user_id=self.user_id)
            await self._send_state()
        elif kind == "cancel":
            await database_call(search_cancel)(user_id=self.user_id)
            await self._send_state()
        elif kind == "ping":
            await database_call(search_touch)(user_id=self.user_id)
            await database_call(seek_touch)(user_id=self.user_id)
            await self.send_json({"type": "pong"})
        elif kind == "sync":
            await self._send_state()
        elif kind == "warning_seen":
            await database_call(cooldown_warning_seen)(user_id=self.user_id)
        else:
            await super().frame_received(frame)

    async def lobby_counts(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "counts", "pools": event["pools"]})

    async def lobby_seeks(self, event: dict[str, Any]) -> None:
        """Open tables changed: this player's own list, read again (blocks differ)."""
        seeks = await database_call(seeks_list)(user_id=self.user_id)
        await self.send_json({"type": "seeks", "seeks": seeks})

    async def lobby_seated(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "seated", "table": event["table"], "url": event["url"]}
        )

    async def _send_state(self) -> None:
        await self.send_json(await database_call(lobby_state)(user_id=self.user_id))
