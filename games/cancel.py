"""Cancel a table that has not finished: nobody wins, nothing is scored.

Other apps decide *why* (a stake table that did not fill, an operator's abort, a
state that cannot be replayed); this only ends the table and tells everyone at it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import engine
from games.errors import TableError
from games.models import Table
from games.payloads import push_messages
from games.rows import table_locked, table_seats
from realtime.broadcast import group_send_all


@transaction.atomic
def table_cancel(*, table_id: int) -> bool:
    """Cancel a waiting or playing table; True if this call cancelled it.

    Every seat and spectator gets the ``cancelled`` state after commit. A table
    already cancelled is left as it is (False). A finished table cannot be
    cancelled: ``TableError("finished")``. A table whose stored state cannot be
    read is still cancelled (its players get the state without a view).
    """
    table = table_locked(table_id)
    if table is None:
        raise TableError("no_table", "There is no such table.")
    if table.status == Table.Status.CANCELLED:
        return False
    if table.status == Table.Status.FINISHED:
        raise TableError("finished", "This table has finished already.")
    seats = table_seats(table)
    try:
        state: engine.State | None = (
            engine.from_json(table.state) if table.state is not None else None
        )
    except Exception:  # noqa: BLE001 - a broken state must not block the cancel
        state = None
    table.status = Table.Status.CANCELLED
    table.finished_at = timezone.now()
    table.timer, table.timer_seat, table.deadline = "", None, None
    table.save(
        update_fields=["status", "finished_at", "timer", "timer_seat", "deadline"]
    )
    messages = push_messages(table=table, seats=seats, state=state)
    transaction.on_commit(lambda: group_send_all(messages))
    return True
