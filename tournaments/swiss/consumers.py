"""``/ws/tournaments/swiss/<id>/``: an event's standings and rounds, live, and
"your game is ready" for the player.

Thin: signed-in players only (4401), an event that exists (4404). The socket
joins the event's group (``update`` frames after each game's end and each
round's start) and the player's own group of the event (``paired``), sends the
event once on connect (and ``paired`` if the player's game is in play), answers
``ping`` and keeps the player marked present: only players with the page open
are paired when a round starts.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from realtime.consumers import SocketConsumer
from realtime.db import database_call
from tournaments.swiss.models import SwissEvent, SwissGame
from tournaments.swiss.notify import swiss_group, swiss_user_group
from tournaments.swiss.presence import presence_clear, presence_mark
from tournaments.swiss.selectors import event_frame

NOT_FOUND = 4404


def _exists(event_id: int) -> bool:
    return SwissEvent.objects.filter(pk=event_id).exists()


def _table_of(event_id: int, user_id: int) -> int | None:
    return (
        SwissGame.objects.filter(event_id=event_id, result=SwissGame.Result.PLAYING)
        .filter(Q(first_id=user_id) | Q(second_id=user_id))
        .values_list("table_id", flat=True)
        .first()
    )


class SwissConsumer(SocketConsumer):
    """``update`` and ``paired`` frames out, ``ping`` in."""

    where = "swiss"

    async def connect(self) -> None:
        if await self.player() is None:
            return
        self.event_id: int = int(self.scope["url_route"]["kwargs"]["event_id"])
        if not await database_call(_exists)(self.event_id):
            await self.refuse(NOT_FOUND)
            return
        self.groups_joined = [
            swiss_group(self.event_id),
            swiss_user_group(self.event_id, self.user_id),
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_call(presence_mark)(event_id=self.event_id, user_id=self.user_id)
        await self.send_json(await database_call(event_frame)(event_id=self.event_id))
        table_id = await database_call(_table_of)(self.event_id, self.user_id)
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
                event_id=self.event_id, user_id=self.user_id
            )

    async def renew(self) -> None:
        await database_call(presence_mark)(event_id=self.event_id, user_id=self.user_id)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "ping":
            await super().frame_received(frame)
            return
        await database_call(presence_mark)(event_id=self.event_id, user_id=self.user_id)
        await self.send_json({"type": "pong"})

    async def swiss_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def swiss_paired(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "paired", "table_id": event["table_id"], "url": event["url"]}
        )
