"""The rollover task (beat: Monday 00:00 UTC, and hourly to catch up after downtime)."""

from __future__ import annotations

from celery import shared_task

from leagues.rollover import rollover_wait, weeks_rollover


@shared_task(name="leagues.rollover")
def leagues_rollover() -> list[str]:
    """Close the weeks that ended; within the grace after Monday 00:00, wait for it."""
    wait = rollover_wait()
    if wait > 0:
        leagues_rollover.apply_async(countdown=wait)
        return []
    return weeks_rollover()
