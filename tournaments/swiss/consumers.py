"""``/ws/tournaments/swiss/<id>/``: a Swiss event's standings and rounds, live, and
"your game is ready" for the player (``tournaments.sockets``): ``update`` frames
after each game's end and each round's start, ``paired`` to each player seated;
only players with the page open are paired when a round starts.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from tournaments.sockets import EventPageConsumer
from tournaments.swiss.models import SwissEvent, SwissGame
from tournaments.swiss.notify import swiss_group, swiss_user_group
from tournaments.swiss.presence import presence_clear, presence_mark
from tournaments.swiss.selectors import event_frame


class SwissConsumer(EventPageConsumer):
    """``update`` and ``paired`` frames out, ``ping`` in."""

    where = "swiss"

    def event_exists(self, event_id: int) -> bool:
        return SwissEvent.objects.filter(pk=event_id).exists()

    def event_groups(self, event_id: int, user_id: int) -> list[str]:
        return [swiss_group(event_id), swiss_user_group(event_id, user_id)]

    def event_frame(self, event_id: int) -> dict[str, Any]:
        return event_frame(event_id=event_id)

    def event_table(self, event_id: int, user_id: int) -> int | None:
        return (
            SwissGame.objects.filter(event_id=event_id, result=SwissGame.Result.PLAYING)
            .filter(Q(first_id=user_id) | Q(second_id=user_id))
            .values_list("table_id", flat=True)
            .first()
        )

    def page_mark(self, event_id: int, user_id: int) -> None:
        presence_mark(event_id=event_id, user_id=user_id)

    def page_clear(self, event_id: int, user_id: int) -> None:
        presence_clear(event_id=event_id, user_id=user_id)

    async def swiss_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def swiss_paired(self, event: dict[str, Any]) -> None:
        await self.paired(event["table_id"], event["url"])
