"""Periodic work of accounts: thin shells around services."""

import logging

from celery import shared_task

from accounts.services import presence_prune

logger = logging.getLogger(__name__)


@shared_task(name="accounts.presence_prune", ignore_result=True)
def presence_prune_task() -> None:
    """Delete connections of processes that died (their sockets never closed)."""
    pruned = presence_prune()
    if pruned:
        logger.info("pruned %d stale presence connections", pruned)
