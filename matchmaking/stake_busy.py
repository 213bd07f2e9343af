"""Is a player busy elsewhere (searching an online pool, say) and so unable to sit
at a stake table? One question, asked by ``stake_sit`` inside its transaction.

The online pools answer it: connect them by adding a check to ``BUSY_CHECKS`` (a
function of the user's id returning a player-facing reason, or None).
"""

from __future__ import annotations

from collections.abc import Callable

BusyCheck = Callable[[int], str | None]

BUSY_CHECKS: list[BusyCheck] = []


def user_busy_elsewhere(*, user_id: int) -> str | None:
    """The first reason the player cannot sit down now, or None if they can."""
    for check in BUSY_CHECKS:
        if reason := check(user_id):
            return reason
    return None
