"""Settled stake tables for staff to look at (RULES.md §5): reads only.

*Dumping*: a seat forfeited before making a single decision of its own (the move
log, ``games.earning``) and its entry went to an account it had met at an earlier
table: the shape of sign-up coins poured into one account. *Linked*: two seats of
one table belong to accounts seen from one address or device (``accounts.links``),
which sitting down refuses, so they were linked afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.links import linked_pairs
from economy.models import Account, Entry, Transaction
from games.earning import decisions_by_seat
from games.models import Seat, Table
from matchmaking.stakes.models import StakeTable

REPORT_LIMIT = 1000


@dataclass(frozen=True)
class Dumping:
    """A seat that forfeited without playing, and who received the pot."""

    table_id: int
    forfeited_user_id: int
    to_user_ids: list[int]


def pot_receivers(*, table_id: int) -> list[int]:
    """The accounts the table's pot was paid to (by the ledger), by id."""
    return sorted(
        set(
            Entry.objects.filter(
                transaction__kind=Transaction.Kind.PAYOUT,
                transaction__table_ref=str(table_id),
                account__kind=Account.Kind.WALLET,
                amount__gt=0,
            ).values_list("account__user_id", flat=True)
        )
    )


def met_before(*, user_id: int, others: list[int], table_id: int) -> list[int]:
    """Those of ``others`` who sat at a table with ``user_id`` before this one."""
    if not others:
        return []
    theirs = Seat.objects.filter(user_id=user_id, table_id__lt=table_id).values(
        "table_id"
    )
    return sorted(
        set(
            Seat.objects.filter(
                user_id__in=others, table_id__in=theirs, table_id__lt=table_id
            ).values_list("user_id", flat=True)
        )
    )


def table_dumping(*, table_id: int, receivers: list[int]) -> list[Dumping]:
    """The table's seats that forfeited without a decision and fed someone met."""
    forfeited = list(
        Seat.objects.filter(
            table_id=table_id, forfeited=True, user_id__isnull=False
        ).values_list("position", "user_id")
    )
    if not forfeited or not receivers:
        return []
    _total, own = decisions_by_seat(table_id)
    found = []
    for position, user_id in forfeited:
        if own[position]:
            continue
        met = met_before(
            user_id=user_id,
            others=[u for u in receivers if u != user_id],
            table_id=table_id,
        )
        if met:
            found.append(Dumping(table_id, user_id, met))
    return found


def table_linked(*, table_id: int) -> list[tuple[int, int]]:
    """Every two accounts seated at the table that are linked."""
    users = Seat.objects.filter(table_id=table_id, user_id__isnull=False).values_list(
        "user_id", flat=True
    )
    return sorted(linked_pairs(user_ids=set(users)))


def dumping_audit() -> list[str]:
    """The audit's ``dumping`` part: every stake table settled within
    ``STAKE_DUMPING_AUDIT_DAYS`` where a seat forfeited before making a decision
    and its entry went to an account it had met at an earlier table."""
    since = timezone.now() - timedelta(days=settings.STAKE_DUMPING_AUDIT_DAYS)
    with_forfeit = Seat.objects.filter(
        forfeited=True, user_id__isnull=False, table__mode=Table.Mode.STAKE
    ).values("table_id")
    lines: list[str] = []
    for table_id in (
        StakeTable.objects.filter(
            state=StakeTable.State.SETTLED,
            closed_at__gte=since,
            pk__in=with_forfeit,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        receivers = pot_receivers(table_id=table_id)
        lines.extend(
            f"dumping: table {table_id}: player {found.forfeited_user_id} forfeited "
            f"before any decision; the pot went to {found.to_user_ids}, met at an "
            "earlier table"
            for found in table_dumping(table_id=table_id, receivers=receivers)
        )
        if len(lines) >= REPORT_LIMIT:
            break
    return lines[:REPORT_LIMIT]
