"""Timed stake-table work: thin Celery shells over the services."""

from __future__ import annotations

import logging

from celery import shared_task

from matchmaking.stakes.services import stake_expire
from matchmaking.stakes.sweep import stakes_overdue

logger = logging.getLogger(__name__)


@shared_task(name="matchmaking.stake_expire", ignore_result=True)
def stake_expire_task(table_id: int) -> None:
    """The fill deadline: cancel and refund the table if it is still not full."""
    if stake_expire(table_id=table_id):
        logger.info("stake table %s did not fill: cancelled and refunded", table_id)


@shared_task(name="matchmaking.stake_sweep", ignore_result=True)
def stake_sweep_task() -> None:
    """Close stake tables whose timed task or settlement was lost."""
    done = stakes_overdue()
    if done:
        logger.warning("stake sweep closed %d tables", done)
