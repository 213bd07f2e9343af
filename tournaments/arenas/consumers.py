"""``/ws/tournaments/arenas/<id>/``: an arena's standings, live, and "your game is
ready" for the player (``tournaments.sockets``): the arena's group gets standings
frames after each finished game, throttled, and each player's own group of the
arena ``paired``; only players with the arena's page open are paired.
"""

from __future__ import annotations

from typing import Any

from tournaments.arenas.models import Arena
from tournaments.arenas.notify import arena_group, arena_user_group
from tournaments.arenas.presence import presence_clear, presence_mark
from tournaments.arenas.selectors import arena_table_of, standings_frame
from tournaments.sockets import EventPageConsumer


class ArenaConsumer(EventPageConsumer):
    """Standings and ``paired`` frames out, ``ping`` in."""

    where = "arena"
    url_kwarg = "arena_id"

    def event_exists(self, event_id: int) -> bool:
        return Arena.objects.filter(pk=event_id).exists()

    def event_groups(self, event_id: int, user_id: int) -> list[str]:
        return [arena_group(event_id), arena_user_group(event_id, user_id)]

    def event_frame(self, event_id: int) -> dict[str, Any]:
        return standings_frame(arena_id=event_id)

    def event_table(self, event_id: int, user_id: int) -> int | None:
        return arena_table_of(arena_id=event_id, user_id=user_id)

    def page_mark(self, event_id: int, user_id: int) -> None:
        presence_mark(arena_id=event_id, user_id=user_id)

    def page_clear(self, event_id: int, user_id: int) -> None:
        presence_clear(arena_id=event_id, user_id=user_id)

    async def arena_standings(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def arena_paired(self, event: dict[str, Any]) -> None:
        await self.paired(event["table_id"], event["url"])
