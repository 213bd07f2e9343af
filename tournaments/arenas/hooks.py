"""What the arenas hang on ``games``' hooks: scoring a finished arena table,
freeing the players of a cancelled one, the table page's link back, and a club
page's team battles."""

from __future__ import annotations

from typing import Any

from clubs.sections import club_section_register
from games.events import event_link_register
from games.finish import consequence_register
from games.signals import table_cancelled
from tournaments.arenas.battle_views import battles_club_section
from tournaments.arenas.selectors import arena_of_table, arena_standing_of_table
from tournaments.arenas.services import (
    arena_on_table_cancelled,
    arena_on_table_finished,
)


def _on_cancelled(sender: Any, *, table_id: int, mode: str, **kwargs: Any) -> None:
    if mode == "online":
        arena_on_table_cancelled(table_id=table_id)


def hooks_register() -> None:
    """Register once (``TournamentsConfig.ready``). Arena tables are online tables:
    every finished online table owes the "arena" step, which does nothing for a
    table no arena seated."""
    consequence_register("arena", arena_on_table_finished, modes=("online",))
    table_cancelled.connect(_on_cancelled, dispatch_uid="tournaments.arenas.cancelled")
    event_link_register(
        "arena", arena_of_table, modes=("online",), standing=arena_standing_of_table
    )
    club_section_register("battles", battles_club_section)
