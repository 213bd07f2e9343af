"""Timed arena work: thin Celery shells over the services."""

from celery import shared_task

from tournaments.arenas.services import arena_pair, arenas_schedule, arenas_tick


@shared_task(name="tournaments.arenas_schedule", ignore_result=True)
def arenas_schedule_task() -> None:
    """Create the scheduled arenas of the coming hours (beat, every 5 minutes)."""
    arenas_schedule()


@shared_task(name="tournaments.arenas_tick", ignore_result=True)
def arenas_tick_task() -> None:
    """Start, pair, end and finish arenas (beat, every few seconds)."""
    arenas_tick()


@shared_task(name="tournaments.arena_pair", ignore_result=True)
def arena_pair_task(arena_id: int) -> None:
    """Pair one arena at once (a player joined)."""
    arena_pair(arena_id=arena_id)
