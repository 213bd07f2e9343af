"""Idle practice tables end as abandoned.

A practice game left by closing the tab would stay "playing" for ever. A practice
table with no event for ``PRACTICE_IDLE`` is cancelled like a left game
(``games.services.table_cancel_locked``: a new ``seq`` with its log entry, the frame
pushed to anyone still watching). The beat schedule runs the sweep (the embedded
worker too).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Table
from games.rows import table_locked
from games.services import table_cancel_locked

PRACTICE_IDLE = timedelta(hours=24)
EXPIRE_BATCH = 200


def tables_idle_practice(*, now: datetime, idle: timedelta) -> list[int]:
    """Ids of practice tables in play whose last event is older than ``idle``."""
    return list(
        Table.objects.filter(mode=Table.Mode.PRACTICE, status=Table.Status.PLAYING)
        .annotate(last=Coalesce(Max("events__created_at"), "created_at"))
        .filter(last__lt=now - idle)
        .order_by("pk")
        .values_list("pk", flat=True)[:EXPIRE_BATCH]
    )


@transaction.atomic
def table_expire(*, table_id: int, now: datetime, idle: timedelta) -> bool:
    """Cancel one idle practice table; False if it moved on or ended meanwhile.

    Holds the table's row lock while it checks the last event again, so a move that
    arrives at the same moment either lands first (and the table stays) or finds
    the table cancelled.
    """
    table = table_locked(table_id)
    if (
        table is None
        or table.mode != Table.Mode.PRACTICE
        or table.status != Table.Status.PLAYING
    ):
        return False
    last = table.events.aggregate(last=Max("created_at"))["last"] or table.created_at
    if last >= now - idle:
        return False
    table_cancel_locked(table, reason="idle")
    return True


def practice_tables_expire(
    *, now: datetime | None = None, idle: timedelta = PRACTICE_IDLE
) -> int:
    """Cancel every practice table idle for longer than ``idle``; how many were."""
    now = now or timezone.now()
    return sum(
        table_expire(table_id=pk, now=now, idle=idle)
        for pk in tables_idle_practice(now=now, idle=idle)
    )
