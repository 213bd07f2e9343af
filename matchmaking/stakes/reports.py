"""Reports to staff about a stake table as it settles (RULES.md §5).

A pot that linked accounts' play moved anyway, and a forfeit without a decision
that fed an account met before, are recorded as ``StakeReport`` rows (the admin's
"Stake reports"); the pot itself follows the result regardless.
"""

from __future__ import annotations

import logging

from matchmaking.stakes.models import StakeReport, StakeTable
from matchmaking.stakes.suspects import table_dumping, table_linked

logger = logging.getLogger(__name__)


def stake_reports_record(*, row: StakeTable, receivers: list[int]) -> None:
    """Record what staff should see about a table being settled (its row locked,
    inside the settlement's transaction); once per table and kind."""
    reports = []
    pairs = table_linked(table_id=row.pk)
    if pairs:
        linked = sorted({u for pair in pairs for u in pair})
        reports.append(
            StakeReport(stake_table=row, kind=StakeReport.Kind.LINKED, user_ids=linked)
        )
    dumped = table_dumping(table_id=row.pk, receivers=receivers)
    if dumped:
        fed = sorted({u for found in dumped for u in found.to_user_ids})
        reports.append(
            StakeReport(
                stake_table=row,
                kind=StakeReport.Kind.DUMPING,
                user_ids=[*(found.forfeited_user_id for found in dumped), *fed],
            )
        )
    if reports:
        for report in reports:
            logger.warning(
                "stake table %s: %s report %s", row.pk, report.kind, report.user_ids
            )
        StakeReport.objects.bulk_create(reports, ignore_conflicts=True)
