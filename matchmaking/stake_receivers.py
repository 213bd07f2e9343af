"""A finished stake table settles its pot and pays its rewards (RULES.md §5-§6)."""

from __future__ import annotations

import logging
from typing import Any

from matchmaking.stake_settle import stake_settle

logger = logging.getLogger(__name__)


def stake_on_table_finished(sender: Any, *, table_id: int, mode: str, **_: Any) -> None:
    """Settle once; the stake sweep settles the table if this is lost or fails."""
    if mode != "stake":
        return
    stake_settle(table_id=table_id)
