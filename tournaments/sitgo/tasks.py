"""Timed sit-and-go work: a thin Celery shell over the services."""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments.sitgo.rounds import sitgo_tables_overdue
from tournaments.sitgo.services import sitgos_expire_due

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.sitgo_sweep", ignore_result=True)
def sitgo_sweep_task() -> None:
    """Cancel and refund sit-and-gos not full by their deadline, replay games a
    fault cancelled, forfeit the seats of players who never came."""
    expired = sitgos_expire_due()
    tables = sitgo_tables_overdue()
    if expired or tables:
        logger.info("sit-and-go sweep: %d cancelled, %d tables", expired, tables)
