"""The finish audit: every finished table has applied everything its finish owed.

1. no finish step is left undone for longer than a crash and a sweep explain;
2. every finished table of a mode that owes consequences has a step for each.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.finish import consequences_for
from games.models import FinishStep, Table

REPORT_LIMIT = 1000
# The sweep runs every few seconds; a step still owed after this is stuck.
STUCK_AFTER = timedelta(minutes=5)


def finish_audit() -> list[str]:
    """Return every breach found (empty when every finish was applied)."""
    breaches = []
    stuck = FinishStep.objects.filter(
        done_at__isnull=True, created_at__lt=timezone.now() - STUCK_AFTER
    ).order_by("created_at")[:REPORT_LIMIT]
    for step in stuck:
        breaches.append(
            f"finish: table {step.table_id}: {step.name} owed since "
            f"{step.created_at:%Y-%m-%d %H:%M:%S} ({step.attempts} attempts"
            f"{': ' + step.error if step.error else ''})"
        )
    for mode in Table.Mode.values:
        for name in consequences_for(mode):
            missing = (
                Table.objects.filter(status=Table.Status.FINISHED, mode=mode)
                .exclude(
                    Exists(FinishStep.objects.filter(table=OuterRef("pk"), name=name))
                )
                .values_list("pk", flat=True)[:REPORT_LIMIT]
            )
            breaches.extend(
                f"finish: table {table_id}: finished without a record of {name}"
                for table_id in missing
            )
    return breaches
