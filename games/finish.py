"""Finishing a table: each seat's place and score written once, then the
``table_finished`` announcement after commit (receivers live in other apps)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.results import seat_results
from games.signals import SeatResult, table_finished

logger = logging.getLogger(__name__)


def table_finish(*, table: Table, seats: Sequence[Seat], state: engine.State) -> None:
    """Mark ``table`` finished (the caller saves ``status`` and ``finished_at``),
    write the seats' results and announce them after commit.

    Call it inside the transaction that reached ``match_over``, holding the table's
    row lock, so the announcement goes out once.
    """
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    results = seat_results(state=state, seats=seats)
    for seat, result in zip(seats, results, strict=True):
        seat.place = result.place
        seat.score = result.score
    Seat.objects.bulk_update(seats, ["place", "score"])
    simulated = any(s.simulated for s in seats)
    transaction.on_commit(
        lambda: _announce(table=table, simulated=simulated, results=results)
    )


def _announce(*, table: Table, simulated: bool, results: list[SeatResult]) -> None:
    """Send ``table_finished``; a failing receiver is logged, the others still run."""
    replies = table_finished.send_robust(
        sender=Table,
        table_id=table.pk,
        mode=table.mode,
        variant=table.variant,
        simulated=simulated,
        results=results,
    )
    for receiver, reply in replies:
        if isinstance(reply, Exception):
            logger.error(
                "table %s: %s failed: %r", table.pk, receiver.__qualname__, reply
            )
