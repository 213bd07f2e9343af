"""``/ws/stakes/``: the stake lobby's tables kept live without polling.

Thin: signed-in players only (4401 otherwise). Every stake write that changes what
the lobby shows nudges one group (``matchmaking.stakes.notify``); the socket passes
the nudge on as a ``changed`` frame and the page fetches its own state once. See
docs/protocol.md, "/ws/stakes/".
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from matchmaking.stakes.notify import STAKES_GROUP
from realtime.consumers import SocketConsumer
from realtime.frames import FrameError, frame_parse, frame_warn
from realtime.ratelimit import TokenBucket

NOT_SIGNED_IN = 4401
FRAMES_PER_SECOND = 1
FRAME_BURST = 5


class StakesConsumer(SocketConsumer):
    """The stake lobby's socket: ``changed`` frames out, ``ping`` in."""

    where = "stakes"

    async def connect(self) -> None:
        await self.accept()  # before the user's session is read: see SocketConsumer
        user = await self.scope_user()
        if user is None or not user.is_authenticated:
            await self.refuse(NOT_SIGNED_IN)
            return
        self.user_id: int = user.pk
        self.bucket = TokenBucket(rate=FRAMES_PER_SECOND, burst=FRAME_BURST)
        self.joined = True
        await self.channel_layer.group_add(STAKES_GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(STAKES_GROUP, self.channel_name)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        try:
            if not self.bucket.take():
                raise FrameError("rate_limited", _("Too many messages; slow down."))
            if frame_parse(text_data, bytes_data)["type"] != "ping":
                raise FrameError("unknown_type", _("Unknown frame type."))
            await self.send_json({"type": "pong"})
        except FrameError as err:
            frame_warn("stakes", err, self.user_id)
            await self.send_json(err.as_frame())

    async def stakes_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})
