"""A sit-and-go and the player's other commitments (``matchmaking.commitments``).

Entering is refused while the player searches an online pool, holds a seat at an
open or live stake table, or plays at an online table (an arena game included):
:func:`entry_blocker`. The other way round, a player still in a sit-and-go (entered
in an open one, or in a running one and not knocked out in its first round) is
refused an online search and a stake seat (the check :func:`sitgo_commitment`,
registered with matchmaking) and arenas do not pair them (:func:`users_in_sitgo`).
Every one of these writes takes the player's commitment lock first, so two of them
by one player never both pass their checks.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from django.db import connection
from django.utils.translation import gettext as _

from dbtools.prepared import prepared_cursor
from games.models import Seat, Table
from matchmaking.pools.selectors import user_searching
from tournaments.arenas.models import ArenaGame
from tournaments.sitgo.models import SitGo, SitGoEntry

_LIVE_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
_LIVE_STATUSES = (Table.Status.WAITING, Table.Status.PLAYING)


def sitgo_commitment(user_id: int) -> str | None:
    """Why a player entered in a sit-and-go that has not finished may not search
    an online pool or sit at a stake table now, or None if they are in none.
    Plain SQL, prepared: every stake sit-down asks it."""
    with prepared_cursor() as cursor:
        cursor.execute(_state_sql(), [user_id])
        found = cursor.fetchone()
    if found is None:
        return None
    if found[0] == SitGo.State.OPEN:
        return _(
            "You are entered in a sit-and-go that has not started: withdraw from "
            "it first."
        )
    return _("You are playing a sit-and-go: wait until it is over.")


@cache
def _state_sql() -> str:
    """The state of the sit-and-go the player is entered in (``active_user`` is
    set while it is open or running)."""
    entry, event = SitGoEntry._meta, SitGo._meta
    quote = connection.ops.quote_name
    state = quote(event.get_field("state").column)
    return (
        f"SELECT s.{state} FROM {quote(entry.db_table)} e "  # noqa: S608
        f"JOIN {quote(event.db_table)} s ON s.{quote(event.pk.column)} = "
        f"e.{quote(entry.get_field('sitgo').column)} "
        f"WHERE e.{quote(entry.get_field('active_user').column)} = %s LIMIT 1"
    )


def users_in_sitgo(user_ids: Collection[int]) -> set[int]:
    """Those of ``user_ids`` entered in a sit-and-go that has not finished."""
    return set(
        SitGoEntry.objects.filter(active_user_id__in=user_ids).values_list(
            "active_user_id", flat=True
        )
    )


def entry_blocker(user_id: int) -> str | None:
    """Why the player may not enter a sit-and-go now (a search, a stake seat, a
    game at an online table), or None."""
    if user_searching(user_id=user_id):
        return _(
            "You are looking for an online table: cancel that search to enter a "
            "sit-and-go."
        )
    seat = (
        Seat.objects.filter(
            user_id=user_id,
            forfeited=False,
            table__mode__in=_LIVE_MODES,
            table__status__in=_LIVE_STATUSES,
        )
        .values_list("table_id", "table__mode")
        .first()
    )
    if seat is None:
        return None
    table_id, mode = seat
    if mode == Table.Mode.STAKE:
        return _(
            "You have a seat at a stake table: finish or leave it before entering "
            "a sit-and-go."
        )
    if ArenaGame.objects.filter(table_id=table_id).exists():
        return _(
            "You are playing an arena game: finish it before entering a sit-and-go."
        )
    return _(
        "You are playing at an online table: finish it before entering a sit-and-go."
    )
