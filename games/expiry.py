"""Tables that end without a result: idle practice tables, and staff cancels.

A practice game left by closing the tab would stay "playing" for ever. A practice
table with no event for ``PRACTICE_IDLE`` is cancelled (shown as abandoned) like a
left game: the change is a new ``seq`` with its log entry, and the frame is pushed
to anyone still watching. The beat schedule runs the sweep (the embedded worker too).
Staff cancel a stuck table the same way from the admin.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import engine
from games.models import Table
from games.payloads import push_messages
from games.rows import event_append, table_locked, table_seats, table_update
from realtime.broadcast import group_send_all

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


def _abandon(table: Table, *, reason: str, now: datetime) -> None:
    """Cancel the locked ``table`` as a new ``seq`` and push its frame after commit."""
    seats = table_seats(table)
    table.status = Table.Status.CANCELLED
    table.finished_at = now
    table.timer, table.timer_seat, table.deadline = "", None, None
    table.seq += 1
    event_append(
        table=table,
        seq=table.seq,
        seat=None,
        actor="server",
        action=None,  # not a move: the replay of the log skips it
        events=[{"type": "abandoned", "reason": reason}],
    )
    table_update(
        table,
        ["seq", "status", "finished_at", "timer", "timer_seat", "deadline"],
    )
    state = engine.from_json(table.state) if table.state else None
    messages = push_messages(table=table, seats=seats, state=state)
    transaction.on_commit(lambda: group_send_all(messages))


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
    _abandon(table, reason="idle", now=now)
    return True


@transaction.atomic
def table_cancel(*, table_id: int) -> bool:
    """Cancel a waiting or playing table (staff, from the admin); False if it ended.

    Like every transition it is a new ``seq``, pushed to the table's players.
    """
    table = table_locked(table_id)
    if table is None or table.status not in (
        Table.Status.WAITING,
        Table.Status.PLAYING,
    ):
        return False
    _abandon(table, reason="staff", now=timezone.now())
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
