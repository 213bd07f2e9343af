"""Timed matchmaking work: thin Celery shells over the services."""

from celery import shared_task

from matchmaking.pools.seeks import seek_abandon, seeks_expire_abandoned
from matchmaking.pools.services import search_abandon, wave_run, waves_run_all
from realtime.sockets import sockets_open

# A closed lobby page's search waits this long for another page of the player (a
# reload reconnects at once).
LOBBY_CLOSE_GRACE_SECONDS = 5


@shared_task(name="matchmaking.waves", ignore_result=True)
def waves_task() -> None:
    """Every pool's wave (on the beat schedule, every ``MATCHMAKING_WAVE_SECONDS``),
    and the expiry of open tables whose owner left the lobby."""
    waves_run_all()
    seeks_expire_abandoned()


@shared_task(name="matchmaking.pool_wave", ignore_result=True)
def pool_wave_task(pool_key: str) -> None:
    """One pool's wave at once (it could fill several tables)."""
    wave_run(pool_key=pool_key)


@shared_task(name="matchmaking.search_unwatched", ignore_result=True)
def search_unwatched_task(user_id: int) -> None:
    """A lobby page of the player closed a moment ago: with none open now, their
    search ends (nobody would see the table it found), and so does their place at
    an open table (the owner's open table expires)."""
    if not sockets_open(kind="lobby", user_id=user_id):
        search_abandon(user_id=user_id)
        seek_abandon(user_id=user_id)


def search_unwatched_check_later(*, user_id: int) -> None:
    """Queue :func:`search_unwatched_task` after ``LOBBY_CLOSE_GRACE_SECONDS``."""
    search_unwatched_task.apply_async((user_id,), countdown=LOBBY_CLOSE_GRACE_SECONDS)
