"""``/ws/stakes/``: the stake lobby's tables kept live without polling.

Thin: signed-in players only (4401 otherwise). Every stake write that changes what
the lobby shows nudges one group (``matchmaking.stakes.notify``); the socket passes
the nudge on as a ``changed`` frame and the page fetches its own state once. See
docs/protocol.md, "/ws/stakes/".
"""

from __future__ import annotations

from typing import Any

from matchmaking.stakes.notify import STAKES_GROUP
from realtime.consumers import SocketConsumer


class StakesConsumer(SocketConsumer):
    """The stake lobby's socket: ``changed`` frames out, ``ping`` in."""

    where = "stakes"

    async def connect(self) -> None:
        if await self.player() is None:
            return
        self.joined = True
        await self.channel_layer.group_add(STAKES_GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(STAKES_GROUP, self.channel_name)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "ping":
            await super().frame_received(frame)
            return
        await self.send_json({"type": "pong"})

    async def stakes_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})
