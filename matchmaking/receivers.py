"""What happens in other apps when a table finishes: coins and XP for its players."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from economy.services import Placing, table_rewards_pay
from games.signals import SeatResult

logger = logging.getLogger(__name__)


def rewards_on_table_finished(
    sender: Any, *, table_id: int, mode: str, results: Sequence[SeatResult], **_: Any
) -> None:
    """Pay the table's rewards by mode (RULES.md §5); paying twice changes nothing."""
    if mode in ("practice", "stake"):
        return  # stake tables: matchmaking.stake_receivers (forfeits earn nothing)
    table_rewards_pay(
        table_ref=str(table_id),
        mode=mode,
        placings=[
            Placing(user_id=r.user_id, position=r.place, seat=r.position, team=r.team)
            for r in results
        ],
    )
