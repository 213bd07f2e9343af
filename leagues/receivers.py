"""The finish receiver: a finished online or stake table's league points."""

from __future__ import annotations

from typing import Any

from leagues.services import COUNTED_MODES, table_points_record


def points_on_finish(
    sender: object, *, table_id: int, mode: str, **kwargs: Any
) -> None:
    """Record the table's points (idempotent: a second delivery writes nothing)."""
    if mode not in COUNTED_MODES:
        return
    table_points_record(table_id=table_id)
