"""``/ws/rooms/<id>/``: a room page kept live without polling.

Thin: the socket is accepted first, then its user is loaded and checked against
the room exactly as the state URL checks them (``room_state``: the host, a seated
player or an invitee); anyone else is closed with 4404, signed-out sockets with
4401. Every change of the room nudges its group (``matchmaking.rooms.notify``);
each socket then re-reads its own member's state and pushes it, or, if its player
is no longer a member, says so and closes. See docs/protocol.md, "/ws/rooms/<id>/".
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from matchmaking.rooms.notify import room_group
from matchmaking.rooms.selectors import room_state
from realtime.consumers import SocketConsumer
from realtime.db import database_call

REMOVED = 4403
NOT_A_MEMBER = 4404


def _user_state(room_id: int, user_id: int) -> dict[str, Any] | None:
    user = User.objects.filter(pk=user_id, is_active=True).first()
    return None if user is None else room_state(room_id=room_id, user=user)


class RoomConsumer(SocketConsumer):
    """The room page's socket: ``state`` frames in, ``sync``/``ping`` out."""

    where = "room"

    async def connect(self) -> None:
        if await self.player() is None:
            return
        self.room_id: int = int(self.scope["url_route"]["kwargs"]["room_id"])
        # Join before reading, so a change committed in between is not missed.
        self.group = room_group(self.room_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send_state(removed=None)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "sync":
            await self._send_state(removed=None)
        elif frame["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            await super().frame_received(frame)

    async def room_changed(self, event: dict[str, Any]) -> None:
        await self._send_state(removed=event.get("removed"))

    async def _send_state(self, *, removed: int | None) -> None:
        state = await database_call(_user_state)(self.room_id, self.user_id)
        if state is not None:
            await self.send_json({"type": "state", **state})
            return
        # No longer a member: nothing more of this room reaches the socket.
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if removed == self.user_id:
            await self.send_json(
                {
                    "type": "removed",
                    "message": _(
                        "The host removed you from this room. You can come back "
                        "only if the host invites you again."
                    ),
                }
            )
            await self.refuse(REMOVED)
            return
        await self.refuse(NOT_A_MEMBER)
