"""Timed matchmaking work: thin Celery shells over the services."""

from celery import shared_task

from matchmaking.services import wave_run, waves_run_all


@shared_task(name="matchmaking.waves", ignore_result=True)
def waves_task() -> None:
    """Every pool's wave (on the beat schedule, every ``MATCHMAKING_WAVE_SECONDS``)."""
    waves_run_all()


@shared_task(name="matchmaking.pool_wave", ignore_result=True)
def pool_wave_task(pool_key: str) -> None:
    """One pool's wave at once (it could fill several tables)."""
    wave_run(pool_key=pool_key)
