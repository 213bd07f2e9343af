"""The safety net of stake tables: no coin stays in a pot because a task was lost.

Cancels (and refunds) open tables past their fill deadline and settles finished
tables whose settlement did not run (a worker restarted after the match ended).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

from games.models import Table
from matchmaking.models import StakeTable
from matchmaking.stake_errors import StakeError
from matchmaking.stake_settle import stake_settle
from matchmaking.stakes import stake_cancel, stake_expire

logger = logging.getLogger(__name__)

# A settlement normally runs right after the match's commit; only one this late
# counts as lost (the receiver and the sweep are idempotent either way).
SETTLE_AFTER = timedelta(seconds=5)


def stakes_overdue(*, limit: int = 200) -> int:
    """Cancel unfilled tables past their deadline and settle lost settlements;
    return how many tables were closed."""
    now = timezone.now()
    done = 0
    expired = StakeTable.objects.filter(
        state=StakeTable.State.OPEN, fill_deadline__lte=now
    ).values_list("pk", flat=True)[:limit]
    for table_id in expired:
        done += stake_expire(table_id=table_id)
    ended = StakeTable.objects.filter(
        state=StakeTable.State.PLAYING,
        table__status__in=[Table.Status.FINISHED, Table.Status.CANCELLED],
        table__finished_at__lte=now - SETTLE_AFTER,
    ).values_list("pk", "table__status")[:limit]
    for table_id, status in ended:
        done += _close(table_id=table_id, status=status)
    return done


def _close(*, table_id: int, status: str) -> bool:
    try:
        if status == "cancelled":
            # Cancelled by games itself mid-match: nobody can win; refund.
            return bool(stake_cancel(table_id=table_id, reason="fault"))
        return stake_settle(table_id=table_id) == "settled"
    except StakeError:
        return False
    except Exception:
        logger.exception("stake table %s: could not be closed", table_id)
        return False
