"""A seated player's table, as the API serves it: only their own seat's view."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext

from api.errors import ApiError
from games.errors import TableError
from games.selectors import table_frame, table_membership


def seat_of(*, table_id: int, user: User) -> int:
    """The user's seat at the table; 404 in words when they have none there (a
    table they may only watch is not theirs to stream or to play)."""
    try:
        position = table_membership(table_id=table_id, user=user)
    except TableError:
        position = None
    if position is None:
        raise ApiError(
            404, "no_table", gettext("There is no such game with a seat of yours.")
        )
    return position


def player_frame(*, table_id: int, user: User) -> dict[str, Any]:
    """The full current ``state`` frame of the user's seat (docs/protocol.md)."""
    frame: dict[str, Any] = table_frame(
        table_id=table_id, position=seat_of(table_id=table_id, user=user)
    )
    return frame
