"""Timed work of embedded games: a thin Celery shell over the purge."""

import logging

from celery import shared_task

from embed.services import embed_games_purge

logger = logging.getLogger(__name__)


@shared_task(name="embed.purge", ignore_result=True)
def embed_purge_task() -> None:
    """Delete ended embedded games and their guests."""
    done = embed_games_purge()
    if done:
        logger.info("purged %d embedded games", done)
