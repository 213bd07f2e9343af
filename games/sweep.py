"""Timed jobs found by their deadline: the turn clocks, and the safety net for lost
jobs of every other kind."""

from collections.abc import Iterable
from datetime import timedelta

from django.utils import timezone

from games.errors import TableError
from games.models import Table
from games.services import table_tick

# A task normally fires on time; only a job this late counts as lost.
OVERDUE_AFTER = timedelta(seconds=3)


def tables_overdue_tick(*, limit: int = 200) -> int:
    """Run the due job of each overdue playing table; return how many ran."""
    cutoff = timezone.now() - OVERDUE_AFTER
    overdue = Table.objects.filter(
        status=Table.Status.PLAYING, deadline__lt=cutoff
    ).values_list("pk", "seq")[:limit]
    return _ticks_run(overdue)


def _ticks_run(due: Iterable[tuple[int, int]]) -> int:
    """Run the due job of each ``(table id, seq)``; return how many ran. A table
    that moved on meanwhile is skipped (its job is stale)."""
    done = 0
    for table_id, seq in due:
        try:
            done += table_tick(table_id=table_id, seq=seq)
        except TableError:
            continue
    return done


# The most clocks one sweep runs out (the next sweep, a second later, takes the rest).
CLOCKS_PER_SWEEP = 500


def clocks_due_tick(*, limit: int = CLOCKS_PER_SWEEP) -> int:
    """Run out every turn clock past its deadline; return how many ran.

    Turn clocks get no task of their own (one per human move would pile up, each
    held by a worker until it fires and mostly stale by then): the deadline on the
    row is the clock, and beat runs this every second (``games.clock_sweep``). A
    clock the player beat has a later deadline or no clock at all, so it never
    fires; one read under the row lock (``table_tick``) makes a racing move win or
    lose cleanly.
    """
    due = Table.objects.filter(
        status=Table.Status.PLAYING,
        timer=Table.Timer.CLOCK,
        deadline__lte=timezone.now(),
    ).values_list("pk", "seq")[:limit]
    return _ticks_run(due)
