"""Timed work: thin Celery shells over the table services."""

import logging

from celery import shared_task
from django.conf import settings

from games.expiry import practice_tables_expire
from games.fairness import chains_reserve_fill
from games.finish import finish_steps_sweep
from games.reviews.services import review_run
from games.services import seats_offline_tick, table_tick
from games.sweep import clocks_due_tick, tables_overdue_tick

logger = logging.getLogger(__name__)


@shared_task(name="games.table_tick", ignore_result=True)
def table_tick_task(table_id: int, seq: int) -> None:
    """A computer move, a turn clock or the next hand; a stale ``seq`` does nothing."""
    table_tick(table_id=table_id, seq=seq)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue_task() -> None:
    """Run the timed jobs of tables whose task was lost (restart, dead worker)."""
    done = tables_overdue_tick()
    if done:
        logger.warning("sweep ran %d overdue table jobs", done)


@shared_task(name="games.clock_sweep", ignore_result=True)
def clock_sweep_task() -> None:
    """Run out the turn clocks past their deadline (they have no task of their own),
    and make offline the seats left longer than their grace."""
    clocks_due_tick()
    seats_offline_tick()


@shared_task(name="games.finish_sweep", ignore_result=True)
def finish_sweep_task() -> None:
    """Apply what finished tables still owe (a process died after their commit)."""
    done = finish_steps_sweep()
    if done:
        logger.warning("finish sweep applied %d owed consequences", done)


@shared_task(name="games.chain_reserve_fill", ignore_result=True)
def chain_reserve_fill_task() -> None:
    """Top up the reserve of fair-deal chains drawn ahead of their tables."""
    if settings.GAMES_FAIR_DEALS:
        chains_reserve_fill(
            target=settings.GAMES_CHAIN_RESERVE,
            batch=settings.GAMES_CHAIN_RESERVE_BATCH,
        )


@shared_task(name="games.practice_expire", ignore_result=True)
def practice_expire_task() -> None:
    """Cancel practice tables nobody has played for a day (closed tabs)."""
    done = practice_tables_expire()
    if done:
        logger.info("abandoned %d idle practice tables", done)


@shared_task(name="games.review_hand", ignore_result=True)
def review_hand_task(review_id: int) -> None:
    """Compute one hand's review (``games.reviews``); on the reviews' own queue,
    so it never takes a thread that moves wait for. Idempotent: a review
    already taken does nothing."""
    review_run(review_id=review_id)
