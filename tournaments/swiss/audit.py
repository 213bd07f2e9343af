"""The Swiss events' pots against their events: every coin entered is held, paid
out whole once, or refunded (a part of the platform's audit, ``ops.audit``); and an
event mints nothing of its own (the ``minting`` part): its prizes are its
entrants' own coins, and its games earn what online tables earn, audited with
every table's."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Q, Sum

from economy.models import Account, Entry, Transaction, XpAward
from tournaments.swiss.models import SwissEntry, SwissEvent

REPORT_LIMIT = 1000
SWISS_REF = "swiss-"  # an event's ledger name: ``services.pot_ref``
State = SwissEvent.State


def swiss_pots_audit() -> list[str]:
    """Return every paid event whose pot disagrees with its entries and state."""
    held: dict[str, int] = defaultdict(int)
    for ref, net in (
        Entry.objects.filter(
            transaction__kind__in=[Transaction.Kind.ENTRY, Transaction.Kind.REFUND],
            transaction__table_ref__startswith=SWISS_REF,
            account__kind=Account.Kind.WALLET,
        )
        .values_list("transaction__table_ref")
        .annotate(net=Sum("amount"))
        .order_by()
    ):
        held[ref] = -(net or 0)
    payouts = dict(
        Transaction.objects.filter(
            kind=Transaction.Kind.PAYOUT, table_ref__startswith=SWISS_REF
        )
        .values_list("table_ref")
        .annotate(n=Count("id"))
        .order_by()
    )
    pots = dict(
        Account.objects.filter(
            kind=Account.Kind.ESCROW, key__startswith=f"pot:{SWISS_REF}"
        ).values_list("key", "state")
    )
    entries: dict[int, int] = {}
    paid_out: dict[int, int] = {}
    for event_id, n, paid in (
        SwissEntry.objects.values("event_id")
        .annotate(n=Count("id"), paid=Sum("payout"))
        .order_by()
        .values_list("event_id", "n", "paid")
    ):
        entries[event_id], paid_out[event_id] = n, paid or 0
    breaches: list[str] = []
    for event in SwissEvent.objects.filter(entry__gt=0).order_by("pk").iterator():
        ref = f"{SWISS_REF}{event.pk}"
        state, n = pots.get(f"pot:{ref}"), payouts.get(ref, 0)
        total = entries.get(event.pk, 0) * event.entry
        problem = ""
        if event.state in (State.SCHEDULED, State.RUNNING):
            if held[ref] != total or n or state != "open":
                problem = f"holds {held[ref]} for {total} entered, {state}"
        elif event.state == State.FINISHED and paid_out.get(event.pk):
            if n != 1 or state != "settled" or paid_out[event.pk] != total:
                problem = f"finished with {n} payouts, a {state} pot, not paid whole"
        elif n or state != "refunded" or held[ref]:
            problem = f"{event.state} unpaid but its pot is {state} with {held[ref]}"
        if problem:
            breaches.append(f"swiss: {event.pk}: {problem}")
        if len(breaches) >= REPORT_LIMIT:
            break
    return breaches


def swiss_minting_audit() -> list[str]:
    """Return every coin or XP minted under a Swiss event's name (it has none)."""
    minted = (
        Entry.objects.filter(account__kind=Account.Kind.MINT)
        .filter(
            Q(transaction__table_ref__startswith=SWISS_REF)
            | Q(transaction__key__contains=SWISS_REF)
        )
        .values_list("transaction__key", flat=True)
        .order_by("transaction__key")[:REPORT_LIMIT]
    )
    xp = XpAward.objects.filter(
        Q(table_ref__startswith=SWISS_REF) | Q(key__contains=SWISS_REF)
    ).values_list("key", flat=True)[:REPORT_LIMIT]
    return [
        f"minting: {key} minted coins or XP for a Swiss event, which has no prize"
        for key in sorted({*minted, *xp})
    ][:REPORT_LIMIT]
