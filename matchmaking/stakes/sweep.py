"""The safety net of stake tables: no coin stays in a pot because a task was lost.

Cancels (and refunds) open tables past their fill deadline, and refunds tables that
``games`` cancelled mid-match whose refund did not run (a worker restarted after the
cancel). A finished table's settlement is a finish step of ``games.finish``, whose
own sweep completes it.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

from games.models import Table
from matchmaking.errors import StakeError
from matchmaking.stakes.models import StakeTable
from matchmaking.stakes.services import stake_cancel, stake_expire

logger = logging.getLogger(__name__)

# A refund normally runs right after the cancel's commit; only one this late
# counts as lost (the receiver and the sweep are idempotent either way).
REFUND_AFTER = timedelta(seconds=5)


def stakes_overdue(*, limit: int = 200) -> int:
    """Cancel unfilled tables past their deadline and refund tables cancelled
    mid-match; return how many tables were closed."""
    now = timezone.now()
    done = 0
    expired = StakeTable.objects.filter(
        state=StakeTable.State.OPEN, fill_deadline__lte=now
    ).values_list("pk", flat=True)[:limit]
    for table_id in expired:
        done += stake_expire(table_id=table_id)
    cancelled = StakeTable.objects.filter(
        state=StakeTable.State.PLAYING,
        table__status=Table.Status.CANCELLED,
        table__finished_at__lte=now - REFUND_AFTER,
    ).values_list("pk", flat=True)[:limit]
    for table_id in cancelled:
        done += _refund(table_id=table_id)
    return done


def _refund(*, table_id: int) -> bool:
    """Refund a table ``games`` cancelled mid-match: nobody can win it."""
    try:
        return stake_cancel(table_id=table_id, reason=StakeTable.Reason.FAULT)
    except StakeError:
        return False
    except Exception:
        logger.exception("stake table %s: could not be refunded", table_id)
        return False
