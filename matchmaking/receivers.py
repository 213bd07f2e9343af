"""What happens in other apps when a table finishes: rewards, ratings, leavers.

Each step is idempotent per table (the ledger's keys, ``RatingChange`` and
``Offence`` are unique per table), so a second announcement changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from economy.services import Placing, table_rewards_pay
from games.signals import SeatResult
from matchmaking.conduct import offences_on_table_finished
from matchmaking.ratings import ratings_apply

logger = logging.getLogger(__name__)


def rewards_on_table_finished(
    sender: Any, *, table_id: int, mode: str, results: Sequence[SeatResult], **_: Any
) -> None:
    """Pay the table's rewards by mode (RULES.md §5); paying twice changes nothing.

    Simulated seats have no user and are never paid. Stake tables are paid by
    ``matchmaking.stake_receivers`` (a forfeited seat earns nothing there).
    """
    if mode in ("practice", "stake"):
        return
    table_rewards_pay(
        table_ref=str(table_id),
        mode=mode,
        placings=[
            Placing(user_id=r.user_id, position=r.place, seat=r.position, team=r.team)
            for r in results
        ],
    )


def ratings_on_table_finished(
    sender: Any,
    *,
    table_id: int,
    mode: str,
    variant: str,
    results: Sequence[SeatResult],
    **_: Any,
) -> None:
    """Rate the people of an online or stake table once (RULES.md §6)."""
    ratings_apply(table_id=table_id, mode=mode, variant=variant, results=results)


def conduct_on_table_finished(
    sender: Any, *, table_id: int, mode: str, results: Sequence[SeatResult], **_: Any
) -> None:
    """Count leavers' offences of an online or stake table (RULES.md §6)."""
    offences_on_table_finished(table_id=table_id, mode=mode, results=results)
