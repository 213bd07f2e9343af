"""Table reads."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games import engine
from games.errors import TableError
from games.payloads import spectator_frame, state_frame
from games.rows import table_with_seats
from games.spectators import watch_state_of
from games.watchers import table_may_see


def table_membership(*, table_id: int, user: User) -> int | None:
    """The user's seat at the table, or None for a spectator; TableError if there is
    no table or the user may not see it (``games.watchers``): the same answer. One
    statement on PostgreSQL for a seated player."""
    found = table_with_seats(table_id, lock=False)
    if found is None:
        raise TableError("no_table", gettext("There is no such table."))
    table, seats = found
    position = next((s.position for s in seats if s.user_id == user.pk), None)
    if position is None and not table_may_see(table=table, user=user):
        raise TableError("no_table", gettext("There is no such table."))
    return position


def table_frame(*, table_id: int, position: int | None) -> dict[str, Any]:
    """The full current ``state`` frame for one seat or a spectator (reconnects):
    one statement on PostgreSQL."""
    found = table_with_seats(table_id, lock=False)
    if found is None:
        raise TableError("no_table", gettext("There is no such table."))
    table, seats = found
    if position is None:
        return spectator_frame(table=table, seats=seats, state=watch_state_of(table))
    state = engine.from_json(table.state) if table.state else None
    return state_frame(table=table, seats=seats, state=state, position=position)
