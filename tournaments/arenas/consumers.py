"""``/ws/tournaments/arenas/<id>/``: an arena's standings, live, and "your game is
ready" for the player.

Thin: signed-in players only (4401), an arena that exists (4404). The socket
joins the arena's group (standings frames, pushed after each finished game,
throttled) and the player's own group of the arena (``paired``), sends the
standings once on connect (and ``paired`` if the player sits at an arena table),
answers ``ping`` and keeps the player marked present on the page: only players
with the page open are paired (``presence``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from realtime.consumers import SocketConsumer
from realtime.db import database_call
from tournaments.arenas.models import Arena
from tournaments.arenas.notify import arena_group, arena_user_group
from tournaments.arenas.presence import presence_clear, presence_mark
from tournaments.arenas.selectors import arena_table_of, standings_frame

NOT_FOUND = 4404


def _arena_exists(arena_id: int) -> bool:
    return Arena.objects.filter(pk=arena_id).exists()


class ArenaConsumer(SocketConsumer):
    """Standings and ``paired`` frames out, ``ping`` in."""

    where = "arena"

    async def connect(self) -> None:
        if await self.player() is None:
            return
        self.arena_id: int = int(self.scope["url_route"]["kwargs"]["arena_id"])
        if not await database_call(_arena_exists)(self.arena_id):
            await self.refuse(NOT_FOUND)
            return
        self.groups_joined = [
            arena_group(self.arena_id),
            arena_user_group(self.arena_id, self.user_id),
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_call(presence_mark)(arena_id=self.arena_id, user_id=self.user_id)
        frame = await database_call(standings_frame)(arena_id=self.arena_id)
        await self.send_json(frame)
        # Seated while no page of theirs was connected (a reload, the join's own
        # redirect): the pairing's notice was missed, so it is sent now.
        table_id = await database_call(arena_table_of)(
            arena_id=self.arena_id, user_id=self.user_id
        )
        if table_id is not None:
            await self.send_json(
                {
                    "type": "paired",
                    "table_id": table_id,
                    "url": reverse("table", args=[table_id]),
                }
            )

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if hasattr(self, "groups_joined"):
            await database_call(presence_clear)(
                arena_id=self.arena_id, user_id=self.user_id
            )

    async def renew(self) -> None:
        await database_call(presence_mark)(arena_id=self.arena_id, user_id=self.user_id)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "ping":
            await super().frame_received(frame)
            return
        await database_call(presence_mark)(arena_id=self.arena_id, user_id=self.user_id)
        await self.send_json({"type": "pong"})

    async def arena_standings(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def arena_paired(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "paired", "table_id": event["table_id"], "url": event["url"]}
        )
