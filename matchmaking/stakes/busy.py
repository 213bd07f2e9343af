"""Is a player busy elsewhere (searching an online pool, entered in a sit-and-go)
and so unable to sit at a stake table? One question, asked by ``stake_sit`` inside
its transaction, under the player's commitment lock (``matchmaking.commitments``).

Each check is a function of the user's id returning a player-facing reason, or
None; the apps above matchmaking add theirs through ``matchmaking.commitments``.
The other direction needs no check here: an online search is refused while the
player holds a seat at a live online or stake table, an open stake table's seat
included (``matchmaking.pools.services.search_start``, code ``seated``), and a
sit-and-go entry asks the same of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from matchmaking.commitments import committed_elsewhere
from matchmaking.pools.selectors import user_searching

BusyCheck = Callable[[int], str | None]


def searching_online(user_id: int) -> str | None:
    """Refuse a player who is waiting in an online pool."""
    if user_searching(user_id=user_id):
        return _("You are looking for an online table: cancel that search to sit here.")
    return None


BUSY_CHECKS: list[BusyCheck] = [searching_online, committed_elsewhere]


def user_busy_elsewhere(*, user_id: int) -> str | None:
    """The first reason the player cannot sit down now, or None if they can."""
    for check in BUSY_CHECKS:
        if reason := check(user_id):
            return reason
    return None
