"""Timed Swiss work: a thin Celery shell over the rounds."""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments.swiss.rounds import swiss_sweep

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.swiss_sweep", ignore_result=True)
def swiss_sweep_task() -> None:
    """Start the rounds that are due and finish the events whose last round is
    over."""
    if changed := swiss_sweep():
        logger.info("swiss sweep: %d events advanced", changed)
