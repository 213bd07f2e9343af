"""The competition's audit, over the ledger and the tables together.

1. every stake pot matches its table: an open or playing table's pot holds exactly
   one entry of each person seated (``StakeSitter``) and nobody else's; a settled
   table's pot was paid out once and is empty; a cancelled table's pot gave every
   entry back;
2. no coin or XP was minted for a seat whose owner did not earn it (RULES.md §5,
   "Earning needs playing": ``Seat.unpaid``).
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Sum

from economy.models import Account, Entry, Transaction, XpAward
from games.models import Seat
from matchmaking.models import StakeSitter, StakeTable

REPORT_LIMIT = 1000


def stake_pots_audit() -> list[str]:
    """Return every stake table whose pot disagrees with its seats."""
    held: dict[str, dict[int, int]] = defaultdict(dict)
    nets = (
        Entry.objects.filter(
            transaction__kind__in=[Transaction.Kind.ENTRY, Transaction.Kind.REFUND],
            account__kind=Account.Kind.WALLET,
        )
        .values_list("transaction__table_ref", "account__user_id")
        .annotate(net=Sum("amount"))
        .order_by()
    )
    for ref, user_id, net in nets:
        if net:
            held[ref][user_id] = -net
    payouts = dict(
        Transaction.objects.filter(kind=Transaction.Kind.PAYOUT)
        .values_list("table_ref")
        .annotate(n=Count("id"))
        .order_by()
    )
    pots = dict(
        Account.objects.filter(kind=Account.Kind.ESCROW).values_list("key", "state")
    )
    sitters: dict[int, set[int]] = defaultdict(set)
    for table_id, user_id in StakeSitter.objects.values_list(
        "stake_table_id", "user_id"
    ):
        sitters[table_id].add(user_id)
    breaches: list[str] = []
    for row in StakeTable.objects.order_by("pk").iterator():
        ref = str(row.pk)
        breaches.extend(
            f"stakes: table {ref}: {problem}"
            for problem in _pot_problems(
                row,
                held=held.get(ref, {}),
                sitters=sitters.get(row.pk, set()),
                payouts=payouts.get(ref, 0),
                pot_state=pots.get(f"pot:{ref}"),
            )
        )
        if len(breaches) >= REPORT_LIMIT:
            break
    return breaches


def _pot_problems(
    row: StakeTable,
    *,
    held: dict[int, int],
    sitters: set[int],
    payouts: int,
    pot_state: str | None,
) -> list[str]:
    problems = []
    if any(amount != row.stake for amount in held.values()):
        problems.append(f"entries of other than {row.stake} coins held: {held}")
    if row.state in (StakeTable.State.OPEN, StakeTable.State.PLAYING):
        if set(held) != sitters:
            problems.append(
                f"the pot holds entries of users {sorted(held)} but users "
                f"{sorted(sitters)} are seated"
            )
        if payouts or pot_state not in (None, Account.State.OPEN):
            problems.append(
                f"{row.state} but its pot is {pot_state} ({payouts} payouts)"
            )
    elif row.state == StakeTable.State.SETTLED and (
        payouts != 1 or pot_state != Account.State.SETTLED
    ):
        problems.append(f"settled with {payouts} payouts and a {pot_state} pot")
    elif row.state == StakeTable.State.CANCELLED and (
        held or payouts or pot_state not in (None, Account.State.REFUNDED)
    ):
        problems.append(
            f"cancelled but its pot is {pot_state}, holds {held}, {payouts} payouts"
        )
    return problems


def unearned_minting_audit() -> list[str]:
    """Return every reward paid for a seat whose owner did not earn it."""
    unpaid = {
        f"reward:{table_id}:{user_id}": (table_id, position, reason)
        for table_id, user_id, position, reason in Seat.objects.filter(
            user__isnull=False
        )
        .exclude(unpaid="")
        .values_list("table_id", "user_id", "position", "unpaid")
        .iterator()
    }
    if not unpaid:
        return []
    paid = set(
        Transaction.objects.filter(key__in=unpaid).values_list("key", flat=True)
    ) | set(XpAward.objects.filter(key__in=unpaid).values_list("key", flat=True))
    return [
        f"minting: table {unpaid[key][0]}: seat {unpaid[key][1]} was paid "
        f"{key} though it earned nothing ({unpaid[key][2]})"
        for key in sorted(paid)
    ][:REPORT_LIMIT]
