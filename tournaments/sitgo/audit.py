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

from django.db.models import Sum

from economy.audit import minted_keys, pot_books
from tournaments.sitgo.models import SitGo, SitGoEntry

REPORT_LIMIT = 1000
SITGO_REF = "sitgo-"  # a sit-and-go's ledger name: ``SitGo.pot_ref``


def sitgo_pots_audit() -> list[str]:
    """Return every sit-and-go whose pot disagrees with its entries and state."""
    books = pot_books(prefix=SITGO_REF)
    paid_out = dict(
        SitGoEntry.objects.values_list("sitgo_id")
        .annotate(total=Sum("payout"))
        .order_by()
    )
    breaches: list[str] = []
    for row in SitGo.objects.order_by("pk").iterator():
        ref = row.pot_ref
        held = books.held.get(ref, 0)
        state, n = books.states.get(ref), books.payouts.get(ref, 0)
        problem = ""
        if row.state in (SitGo.State.OPEN, SitGo.State.RUNNING):
            if held != row.seats_taken * row.entry or n or state != "open":
                problem = f"holds {held} for {row.seats_taken} entries, {state}"
        elif row.state == SitGo.State.FINISHED:
            whole = paid_out.get(row.pk, 0) == row.size * row.entry
            if n != 1 or state != "settled" or not whole:
                problem = f"finished with {n} payouts, a {state} pot, not paid whole"
        elif n or state not in (None, "refunded") or held:
            problem = f"cancelled but its pot is {state} with {held} held"
        if problem:
            breaches.append(f"sitgo: {row.pk}: {problem}")
        if len(breaches) >= REPORT_LIMIT:
            break
    return breaches


def sitgo_minting_audit() -> list[str]:
    """Return every coin or XP minted under a sit-and-go's name (it has none to
    mint: a prize there would be paid to whoever held the place, earned or not)."""
    return [
        f"minting: {key} minted coins or XP for a sit-and-go, which has no prize"
        for key in minted_keys(prefix=SITGO_REF, limit=REPORT_LIMIT)
    ]
