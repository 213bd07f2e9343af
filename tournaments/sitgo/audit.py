"""The sit-and-go pots against their events: every coin entered is held, paid out
whole once, or refunded (a part of the platform's audit, ``ops.audit``); and a
sit-and-go mints nothing of its own (the ``minting`` part).

A sit-and-go's money is its entrants' own: the pot follows the result, whoever
played the seats (RULES.md §5). It has no prize from the mint, neither coins nor
XP: what its games earn are the online tables' rewards, paid by each table's
finish under ``reward:<table>:<user>`` and audited with every table's
(``matchmaking.audit.unearned_minting_audit``).
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Q, Sum

from economy.models import Account, Entry, Transaction, XpAward
from tournaments.sitgo.models import SitGo, SitGoEntry

REPORT_LIMIT = 1000
SITGO_REF = "sitgo-"  # a sit-and-go's ledger name: ``SitGo.pot_ref``


def sitgo_pots_audit() -> list[str]:
    """Return every sit-and-go whose pot disagrees with its entries and state."""
    held: dict[str, int] = defaultdict(int)
    for ref, net in (
        Entry.objects.filter(
            transaction__kind__in=[Transaction.Kind.ENTRY, Transaction.Kind.REFUND],
            transaction__table_ref__startswith=SITGO_REF,
            account__kind=Account.Kind.WALLET,
        )
        .values_list("transaction__table_ref")
        .annotate(net=Sum("amount"))
        .order_by()
    ):
        held[ref] = -(net or 0)
    payouts = dict(
        Transaction.objects.filter(
            kind=Transaction.Kind.PAYOUT, table_ref__startswith=SITGO_REF
        )
        .values_list("table_ref")
        .annotate(n=Count("id"))
        .order_by()
    )
    pots = dict(
        Account.objects.filter(
            kind=Account.Kind.ESCROW, key__startswith=f"pot:{SITGO_REF}"
        ).values_list("key", "state")
    )
    paid_out = dict(
        SitGoEntry.objects.values_list("sitgo_id")
        .annotate(total=Sum("payout"))
        .order_by()
    )
    breaches: list[str] = []
    for row in SitGo.objects.order_by("pk").iterator():
        ref = row.pot_ref
        state, n = pots.get(f"pot:{ref}"), payouts.get(ref, 0)
        problem = ""
        if row.state in (SitGo.State.OPEN, SitGo.State.RUNNING):
            if held[ref] != row.seats_taken * row.entry or n or state != "open":
                problem = f"holds {held[ref]} for {row.seats_taken} entries, {state}"
        elif row.state == SitGo.State.FINISHED:
            whole = paid_out.get(row.pk, 0) == row.size * row.entry
            if n != 1 or state != "settled" or not whole:
                problem = f"finished with {n} payouts, a {state} pot, not paid whole"
        elif n or state not in (None, "refunded") or held[ref]:
            problem = f"cancelled but its pot is {state} with {held[ref]} held"
        if problem:
            breaches.append(f"sitgo: {row.pk}: {problem}")
        if len(breaches) >= REPORT_LIMIT:
            break
    return breaches


def sitgo_minting_audit() -> list[str]:
    """Return every coin or XP minted under a sit-and-go's name (it has none to
    mint: a prize there would be paid to whoever held the place, earned or not)."""
    minted = (
        Entry.objects.filter(account__kind=Account.Kind.MINT)
        .filter(
            Q(transaction__table_ref__startswith=SITGO_REF)
            | Q(transaction__key__contains=SITGO_REF)
        )
        .values_list("transaction__key", flat=True)
        .order_by("transaction__key")[:REPORT_LIMIT]
    )
    xp = XpAward.objects.filter(
        Q(table_ref__startswith=SITGO_REF) | Q(key__contains=SITGO_REF)
    ).values_list("key", flat=True)[:REPORT_LIMIT]
    return [
        f"minting: {key} minted coins or XP for a sit-and-go, which has no prize"
        for key in sorted({*minted, *xp})
    ][:REPORT_LIMIT]
