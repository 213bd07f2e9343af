"""A finished stake table settles its pot and pays its rewards (RULES.md §5-§6)."""

from __future__ import annotations

import logging
from typing import Any

from games.finish import FinishNotice
from matchmaking.errors import StakeError
from matchmaking.stakes.models import StakeTable
from matchmaking.stakes.services import stake_cancel
from matchmaking.stakes.settle import stake_settle

logger = logging.getLogger(__name__)


def stake_on_table_finished(notice: FinishNotice) -> None:
    """Settle the pot and pay the rewards, once (the stake row's state says so)."""
    stake_settle(table_id=notice.table_id)


def stake_on_table_cancelled(
    sender: Any, *, table_id: int, mode: str, reason: str, **_: Any
) -> None:
    """Refund a stake table cancelled from ``games`` (e.g. the admin's Cancel action).

    ``stake_cancel`` refunds once: a table it cancelled itself is ``cancelled``
    already when this runs, and nothing happens a second time.
    """
    if mode != "stake":
        return
    try:
        stake_cancel(
            table_id=table_id,
            reason=StakeTable.Reason.OPERATOR,
            text=reason,
        )
    except StakeError as err:
        logger.error("stake table %s not refunded: %s", table_id, err.code)
