"""The timed job of a table (a computer move, a turn clock, the next hand) as a
Celery task, handed to ``realtime.outbox`` to publish once the frames are out; a
light one (``local``) is run by the socket server that queued it instead, where
there is one (``games.local_ticks``).

The task is sent by name (``games.table_tick``, defined in ``games.tasks``), so the
services that queue it do not import the task module, which imports them. If the
process dies before it publishes, the sweep runs the overdue job (``games.sweep``);
jobs are idempotent by ``seq`` either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from celery import current_app
from django.utils import timezone

from games.local_ticks import tick_here

TICK_TASK = "games.table_tick"


@dataclass(frozen=True, slots=True)
class TickJob:
    """Queue ``games.table_tick(table_id, seq)`` to run at ``deadline``; run it on
    this server process instead if it is ``local`` (light) and this process serves
    sockets."""

    table_id: int
    seq: int
    deadline: datetime
    local: bool = False

    def __call__(self) -> None:
        countdown = max(0.0, (self.deadline - timezone.now()).total_seconds())
        if self.local and tick_here(
            task=TICK_TASK, table_id=self.table_id, seq=self.seq, countdown=countdown
        ):
            return
        current_app.send_task(
            TICK_TASK,
            args=(self.table_id, self.seq),
            countdown=countdown,
            ignore_result=True,
        )


def tick_job(
    table_id: int, seq: int, deadline: datetime | None, *, local: bool = False
) -> TickJob | None:
    """The job for a table waiting on ``deadline`` at ``seq``, or None if none."""
    if deadline is None:
        return None
    return TickJob(table_id, seq, deadline, local)
