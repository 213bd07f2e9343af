"""The finish consequence: a finished online or stake table's league points."""

from __future__ import annotations

from games.finish import FinishNotice
from leagues.services import table_points_record


def points_on_finish(notice: FinishNotice) -> None:
    """Record the table's points (idempotent: a second delivery writes nothing)."""
    table_points_record(table_id=notice.table_id)
