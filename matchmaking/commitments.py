"""One commitment at a time: a player searching an online pool, holding a stake
seat, entered in a sit-and-go or playing an arena game takes on nothing else.

Each of these writes checks the others, then claims its own row. Checks and claims
live in different tables, so two writes by the same player at once could each pass
their check before the other's claim commits. :func:`player_lock` closes that gap:
every such write takes the player's user row lock first (``FOR NO KEY UPDATE``,
which rows pointing at the user do not wait for), so one player's commitments run
one after the other and each one's checks see what the one before committed.

Apps above matchmaking (``tournaments``) commit players too, and matchmaking may
not import them: they register a check here (:func:`commitment_check_register`)
that an online search and a stake seat ask (:func:`committed_elsewhere`). A check
is a function of the user's id returning a player-facing reason, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from dbtools.prepared import prepared_cursor

CommitmentCheck = Callable[[int], str | None]

_checks: dict[str, CommitmentCheck] = {}


def commitment_check_register(name: str, check: CommitmentCheck) -> None:
    """Register ``check`` under ``name`` (registering a name again replaces it,
    as a reloaded app does)."""
    _checks[name] = check


def committed_elsewhere(user_id: int) -> str | None:
    """The first reason a registered check gives why the player is committed
    outside matchmaking, or None."""
    for check in _checks.values():
        if reason := check(user_id):
            return reason
    return None


def player_lock(*, user_id: int) -> None:
    """Take the player's commitment lock: their user row's, until the transaction
    ends. Must run inside ``transaction.atomic``, before any other lock of the
    write (it is the first in every lock order that includes it). SQLite runs one
    write transaction at a time and needs no row lock: nothing is sent there.
    Plain SQL, prepared: a stake sit-down pays for it."""
    if connection.vendor != "postgresql":
        return
    with prepared_cursor() as cursor:
        cursor.execute(_lock_sql(), [user_id])


@cache
def _lock_sql() -> str:
    meta = get_user_model()._meta
    quote = connection.ops.quote_name
    return (
        f"SELECT 1 FROM {quote(meta.db_table)} "  # noqa: S608 - names from the model
        f"WHERE {quote(meta.pk.column)} = %s FOR NO KEY UPDATE"
    )


def players_lock_free(*, user_ids: Collection[int]) -> set[int]:
    """Take the commitment locks of those of ``user_ids`` whom no other write
    holds now (``SKIP LOCKED``: a pairing of many players never waits for one of
    them); return their ids. Inside ``transaction.atomic``."""
    users = get_user_model().objects.select_for_update(no_key=True, skip_locked=True)
    return set(
        users.filter(pk__in=user_ids).order_by("pk").values_list("pk", flat=True)
    )
