"""Cancelling a table: one that never started, or one in play, with nobody winning."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import engine
from games.errors import TableError
from games.models import Table
from games.rows import table_seats
from games.services.transitions import change, table_lock
from games.signals import table_cancelled
from games.timers import NOTHING

logger = logging.getLogger(__name__)


def table_waiting_cancel(*, table_id: int) -> bool:
    """Cancel a table that never started (a friend room closed before its start).

    It has no moves, no log and nobody watching, so unlike ``table_cancel`` it
    takes no ``seq`` and announces nothing. True if this call cancelled it; a table
    that started, or was cancelled already, is left as it is.
    """
    return bool(
        Table.objects.filter(pk=table_id, status=Table.Status.WAITING).update(
            status=Table.Status.CANCELLED, finished_at=timezone.now()
        )
    )


@transaction.atomic
def table_cancel(*, table_id: int, reason: str = "staff") -> bool:
    """Cancel a waiting or playing table; True if this call cancelled it.

    Nobody is paid and no result is written. ``reason`` goes into the log entry
    (``staff``, ``idle`` for an abandoned practice table, or the caller's own, e.g.
    a stake table that did not fill). A table cancelled already is left as it is
    (False); a finished table cannot be cancelled (``TableError("finished")``). A
    table whose stored state cannot be read is still cancelled: its players then get
    the state without a view.
    """
    table = table_lock(table_id)
    if table.status == Table.Status.CANCELLED:
        return False
    if table.status == Table.Status.FINISHED:
        raise TableError("finished", gettext("This table has finished already."))
    table_cancel_locked(table, reason=reason)
    return True


def table_cancel_locked(
    table: Table, *, reason: str, position: int | None = None
) -> None:
    """Cancel ``table``, whose row lock the caller holds: a new ``seq`` as always.

    ``table_cancelled`` goes out after the commit (once: a cancelled table is never
    cancelled again).
    """
    seats = table_seats(table)
    table.status = Table.Status.CANCELLED
    table.finished_at = timezone.now()
    try:
        state = engine.from_json(table.state) if table.state else None
    except Exception:
        state = None
    change(
        table,
        seats,
        state,
        position=position,
        timer=NOTHING,
        fields=["status", "finished_at"],
        events=[{"type": "abandoned", "reason": reason}],
    )
    table_id, mode = table.pk, table.mode
    transaction.on_commit(
        lambda: _announce_cancelled(table_id=table_id, mode=mode, reason=reason)
    )


def _announce_cancelled(*, table_id: int, mode: str, reason: str) -> None:
    """Send ``table_cancelled``; a failing receiver is logged, the others still run."""
    replies = table_cancelled.send_robust(
        sender=Table, table_id=table_id, mode=mode, reason=reason
    )
    for receiver, reply in replies:
        if isinstance(reply, Exception):
            logger.error(
                "table %s: %s failed: %r", table_id, receiver.__qualname__, reply
            )
