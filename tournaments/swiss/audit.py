"""The Swiss events' pots against their events: every coin entered is held, paid
out whole once, or refunded (a part of the platform's audit, ``ops.audit``); and an
event mints nothing of its own (the ``minting`` part): its prizes are its
entrants' own coins, and its games earn what online tables earn, audited with
every table's."""

from __future__ import annotations

from django.db.models import Count, Sum

from economy.audit import minted_keys, pot_books
from tournaments.swiss.models import SwissEntry, SwissEvent

REPORT_LIMIT = 1000
SWISS_REF = "swiss-"  # an event's ledger name: ``services.pot_ref``
State = SwissEvent.State


def swiss_pots_audit() -> list[str]:
    """Return every paid event whose pot disagrees with its entries and state."""
    books = pot_books(prefix=SWISS_REF)
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
        held = books.held.get(ref, 0)
        state, n = books.states.get(ref), books.payouts.get(ref, 0)
        total = entries.get(event.pk, 0) * event.entry
        problem = ""
        if event.state in (State.SCHEDULED, State.RUNNING):
            if held != total or n or state != "open":
                problem = f"holds {held} for {total} entered, {state}"
        elif event.state == State.FINISHED and paid_out.get(event.pk):
            if n != 1 or state != "settled" or paid_out[event.pk] != total:
                problem = f"finished with {n} payouts, a {state} pot, not paid whole"
        elif n or state != "refunded" or held:
            problem = f"{event.state} unpaid but its pot is {state} with {held}"
        if problem:
            breaches.append(f"swiss: {event.pk}: {problem}")
        if len(breaches) >= REPORT_LIMIT:
            break
    return breaches


def swiss_minting_audit() -> list[str]:
    """Return every coin or XP minted under a Swiss event's name (it has none)."""
    return [
        f"minting: {key} minted coins or XP for a Swiss event, which has no prize"
        for key in minted_keys(prefix=SWISS_REF, limit=REPORT_LIMIT)
    ]
