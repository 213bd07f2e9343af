"""``/ws/presence/``: the online-players count, kept live, and ping/pong.

The count is pushed to every presence socket only when a player comes online or
goes offline (their first socket opens; their last closes and none opens again
within ``accounts.presence.offline_grace``); another tab of a player already online
is sent the count alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from accounts.groups import PRESENCE_GROUP, user_group
from accounts.presence import (
    offline_grace,
    presence_connect,
    presence_disconnect,
    presence_lapse,
    presence_touch,
)
from accounts.relay import relay_handler
from accounts.signals import presence_changed
from realtime.consumers import SocketConsumer

# The lapses waiting out a grace (a reference keeps each task alive).
_lapses: set[asyncio.Task[None]] = set()


class PresenceConsumer(SocketConsumer):
    """Signed-in players only; an anonymous socket is closed with 4401."""

    where = "presence"
    # Every page opens this socket, which needs only the player's id and name.
    identity_only = True
    # The page pings once a minute; a little room for reconnects and several tabs
    # (the base's allowance: one frame a second, five at once).

    async def connect(self) -> None:
        user = await self.player()
        if user is None:
            return
        self.username: str = user.get_username()
        came_online, count = await sync_to_async(
            presence_connect, thread_sensitive=False
        )(user_id=user.pk, channel_name=self.channel_name)
        await self.channel_layer.group_add(PRESENCE_GROUP, self.channel_name)
        await self.channel_layer.group_add(user_group(user.pk), self.channel_name)
        if came_online:
            await self._broadcast_count(count)
            await self._changed(online=True)
        else:
            await self.send_json({"type": "online", "online": count})

    async def disconnect(self, code: int) -> None:
        if self.user_id is None:
            return
        try:
            await self.channel_layer.group_discard(PRESENCE_GROUP, self.channel_name)
            await self.channel_layer.group_discard(
                user_group(self.user_id), self.channel_name
            )
        finally:
            last = await sync_to_async(presence_disconnect, thread_sensitive=False)(
                user_id=self.user_id, channel_name=self.channel_name
            )
        if last:
            task = asyncio.create_task(self._lapse_later())
            _lapses.add(task)
            task.add_done_callback(_lapses.discard)

    async def _lapse_later(self) -> None:
        """Once the player's grace has passed with no page open again, say they
        went offline."""
        await asyncio.sleep(offline_grace())
        went_offline, count = await sync_to_async(
            presence_lapse, thread_sensitive=False
        )(user_id=self.user_id)
        if went_offline:
            await self._broadcast_count(count)
            await self._changed(online=False)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        handler = relay_handler(frame["type"])
        if frame["type"] != "ping" and handler is None:
            await super().frame_received(frame)
            return
        if handler is not None:
            reply = await database_sync_to_async(handler)(
                self.user_id, self.username, frame
            )
            if reply is not None:
                await self.send_json(reply)
            return
        count = await sync_to_async(presence_touch, thread_sensitive=False)(
            user_id=self.user_id, channel_name=self.channel_name
        )
        await self.send_json({"type": "pong", "online": count})

    async def presence_count(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "online", "online": event["online"]})

    async def invitation_push(self, event: dict[str, Any]) -> None:
        """A room invitation for this player (``matchmaking.rooms.notify``)."""
        await self.send_json({"type": "invitation", "invitation": event["invitation"]})

    async def user_push(self, event: dict[str, Any]) -> None:
        """A frame for this player from an app above accounts (friends)."""
        await self.send_json(event["frame"])

    async def _changed(self, *, online: bool) -> None:
        await database_sync_to_async(presence_changed.send)(
            sender=PresenceConsumer,
            user_id=self.user_id,
            name=self.username,
            online=online,
        )

    async def _broadcast_count(self, count: int) -> None:
        await self.channel_layer.group_send(
            PRESENCE_GROUP, {"type": "presence.count", "online": count}
        )
