"""The socket of an event's page (an arena's, a Swiss event's): the event's frame
out on connecting and on every change, "your game is ready" to a player seated,
``ping`` in, and the player marked present on the page while it is open (only
present players are paired).

Thin: signed-in players only (4401), an event that exists (4404). A kind of event
says how to find, group, frame and mark through the methods below; its group
messages' handlers stay its own (they are named by the message types it sends).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from realtime.consumers import SocketConsumer
from realtime.db import database_call

NOT_FOUND = 4404


class EventPageConsumer(SocketConsumer):
    """The common part; subclasses name ``url_kwarg`` and the methods below."""

    url_kwarg = "event_id"

    # --- what a kind of event provides (run off the event loop)

    def event_exists(self, event_id: int) -> bool:
        raise NotImplementedError

    def event_groups(self, event_id: int, user_id: int) -> list[str]:
        raise NotImplementedError

    def event_frame(self, event_id: int) -> dict[str, Any]:
        raise NotImplementedError

    def event_table(self, event_id: int, user_id: int) -> int | None:
        """The player's game in play in the event, if any."""
        raise NotImplementedError

    def page_mark(self, event_id: int, user_id: int) -> None:
        raise NotImplementedError

    def page_clear(self, event_id: int, user_id: int) -> None:
        raise NotImplementedError

    # --- the socket

    async def connect(self) -> None:
        if await self.player() is None:
            return
        self.event_id: int = int(self.scope["url_route"]["kwargs"][self.url_kwarg])
        if not await database_call(self.event_exists)(self.event_id):
            await self.refuse(NOT_FOUND)
            return
        self.groups_joined = self.event_groups(self.event_id, self.user_id)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_call(self.page_mark)(self.event_id, self.user_id)
        await self.send_json(await database_call(self.event_frame)(self.event_id))
        # Seated while no page of theirs was connected (a reload, a redirect):
        # the pairing's notice was missed, so it is sent now.
        table_id = await database_call(self.event_table)(self.event_id, self.user_id)
        if table_id is not None:
            await self.paired(table_id, reverse("table", args=[table_id]))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if hasattr(self, "groups_joined"):
            await database_call(self.page_clear)(self.event_id, self.user_id)

    async def renew(self) -> None:
        await database_call(self.page_mark)(self.event_id, self.user_id)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "ping":
            await super().frame_received(frame)
            return
        await database_call(self.page_mark)(self.event_id, self.user_id)
        await self.send_json({"type": "pong"})

    async def paired(self, table_id: int, url: str) -> None:
        await self.send_json({"type": "paired", "table_id": table_id, "url": url})
