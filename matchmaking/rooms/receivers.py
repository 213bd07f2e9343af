"""What a cancelled or finished friend-room table does to its room (``games``'
signal and finish consequence, registered by ``matchmaking.hooks``)."""

from __future__ import annotations

from typing import Any

from games.finish import FinishNotice
from matchmaking.rooms.models import Room
from matchmaking.rooms.notify import room_changed
from matchmaking.rooms.services import room_table_cancelled


def room_on_table_cancelled(sender: Any, *, table_id: int, mode: str, **_: Any) -> None:
    """A friend room whose table ``games`` cancelled (staff, abandoned) closes."""
    if mode == "friend":
        room_table_cancelled(table_id=table_id)


def room_on_table_finished(notice: FinishNotice) -> None:
    """The room pages of a finished friend table show the end and the rematch."""
    for room_id in Room.objects.filter(table_id=notice.table_id).values_list(
        "pk", flat=True
    ):
        room_changed(room_id=room_id)
