"""Table reads."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games import engine
from games.errors import TableError
from games.models import Seat, Table
from games.payloads import spectator_frame, state_frame
from games.spectators import watch_state_of
from games.watchers import table_may_see


def table_membership(*, table_id: int, user: User) -> int | None:
    """The user's seat at the table, or None for a spectator; TableError if there is
    no table or the user may not see it (``games.watchers``): the same answer."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table_may_see(table=table, user=user):
        raise TableError("no_table", gettext("There is no such table."))
    position: int | None = (
        Seat.objects.filter(table_id=table_id, user=user)
        .values_list("position", flat=True)
        .first()
    )
    return position


def table_frame(*, table_id: int, position: int | None) -> dict[str, Any]:
    """The full current ``state`` frame for one seat or a spectator (reconnects)."""
    table = Table.objects.get(pk=table_id)
    seats = list(table.seats.select_related("user"))
    if position is None:
        return spectator_frame(table=table, seats=seats, state=watch_state_of(table))
    state = engine.from_json(table.state) if table.state else None
    return state_frame(table=table, seats=seats, state=state, position=position)
