"""Telling the registered finish consequences about a table, as the finish does."""

from __future__ import annotations

from collections.abc import Sequence

from games.finish import FinishNotice, consequence, consequences_for
from games.signals import SeatResult


def finish_announce(
    *, table_id: int, mode: str, results: Sequence[SeatResult], variant: str = "draw"
) -> None:
    """Apply every consequence registered for ``mode`` to this result, directly
    (no finish step rows): what a finish owes, run once more by hand."""
    notice = FinishNotice(
        table_id=table_id,
        mode=mode,
        variant=variant,
        simulated=any(r.simulated for r in results),
        results=list(results),
    )
    for name in consequences_for(mode):
        consequence(name).apply(notice)
