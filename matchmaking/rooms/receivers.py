"""What a cancelled friend-room table does to its room (``games``' signal,
connected by ``MatchmakingConfig``)."""

from __future__ import annotations

from typing import Any

from matchmaking.rooms.services import room_table_cancelled


def room_on_table_cancelled(sender: Any, *, table_id: int, mode: str, **_: Any) -> None:
    """A friend room whose table ``games`` cancelled (staff, abandoned) closes."""
    if mode == "friend":
        room_table_cancelled(table_id=table_id)
