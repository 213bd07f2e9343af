"""The safety net for lost timed jobs: act on tables past their deadline."""

from datetime import timedelta

from django.utils import timezone

from games.errors import TableError
from games.models import Table
from games.services import table_tick

# A task normally fires on time; only a job this late counts as lost.
OVERDUE_AFTER = timedelta(seconds=3)


def tables_overdue_tick(*, limit: int = 200) -> int:
    """Run the due job of each overdue playing table; return how many ran."""
    cutoff = timezone.now() - OVERDUE_AFTER
    overdue = Table.objects.filter(
        status=Table.Status.PLAYING, deadline__lt=cutoff
    ).values_list("pk", "seq")[:limit]
    done = 0
    for table_id, seq in overdue:
        try:
            done += table_tick(table_id=table_id, seq=seq)
        except TableError:
            continue
    return done
