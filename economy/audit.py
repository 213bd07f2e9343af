"""The ledger audit: every invariant checked in a few set-based queries.

1. every transaction has at least two entries and they sum to zero;
2. every wallet's and escrow's ``balance`` equals the sum of its entries;
3. no wallet or escrow is below zero (by balance or by entries);
4. every ``refunded`` (cancelled table) and ``settled`` (finished table) escrow is
   empty;
5. every ``open`` escrow holds exactly its unrefunded entries: each refund gives
   back one entry of the same sitting (``refund:`` with the entry key's tail), in
   full.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, Q, Sum

from economy.models import Account, Entry, Transaction, XpAward

REPORT_LIMIT = 1000


@dataclass(frozen=True)
class Breach:
    check: str
    subject: str
    detail: str

    def __str__(self) -> str:
        return f"{self.check}: {self.subject}: {self.detail}"


def ledger_audit() -> list[Breach]:
    """Return every breach found (empty when the ledger is sound)."""
    tx, entry, account = (
        Transaction._meta.db_table,
        Entry._meta.db_table,
        Account._meta.db_table,
    )
    breaches: list[Breach] = []
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT t.id, t.key, s.total, s.n
            FROM (SELECT transaction_id, SUM(amount) AS total, COUNT(*) AS n
                  FROM {entry} GROUP BY transaction_id) s
            JOIN {tx} t ON t.id = s.transaction_id
            WHERE s.total <> 0 OR s.n < 2
            LIMIT {REPORT_LIMIT}
            """  # noqa: S608 - table names from the models, no user input
        )
        for pk, key, total, n in cursor.fetchall():
            breaches.append(
                Breach(
                    "unbalanced", f"transaction {pk} {key}", f"{n} entries sum {total}"
                )
            )
        cursor.execute(
            f"""
            SELECT t.id, t.key FROM {tx} t
            WHERE NOT EXISTS (SELECT 1 FROM {entry} e WHERE e.transaction_id = t.id)
            LIMIT {REPORT_LIMIT}
            """  # noqa: S608
        )
        for pk, key in cursor.fetchall():
            breaches.append(
                Breach("unbalanced", f"transaction {pk} {key}", "no entries")
            )
        cursor.execute(
            f"""
            SELECT a.id, a.key, a.kind, a.state, a.balance, COALESCE(s.total, 0)
            FROM {account} a
            LEFT JOIN (SELECT account_id, SUM(amount) AS total
                       FROM {entry} GROUP BY account_id) s ON s.account_id = a.id
            WHERE a.kind IN ('wallet', 'escrow') AND (
                a.balance IS NULL OR a.balance <> COALESCE(s.total, 0)
                OR a.balance < 0 OR COALESCE(s.total, 0) < 0
                OR (a.kind = 'escrow' AND a.state IN ('settled', 'refunded')
                    AND (a.balance <> 0 OR COALESCE(s.total, 0) <> 0)))
            LIMIT {REPORT_LIMIT}
            """  # noqa: S608
        )
        for _pk, key, kind, state, balance, total in cursor.fetchall():
            if balance is None or balance != total:
                breaches.append(
                    Breach("balance", key, f"balance {balance} but entries sum {total}")
                )
            if (balance or 0) < 0 or total < 0:
                breaches.append(
                    Breach("negative", key, f"balance {balance}, entries sum {total}")
                )
            closed = kind == "escrow" and state in ("settled", "refunded")
            if closed and (balance or total):
                breaches.append(
                    Breach(
                        "escrow",
                        key,
                        f"{state} pot still holds {balance} (entries {total})",
                    )
                )
        breaches += _open_pots_check(cursor)
    return breaches


def _open_pots_check(cursor: Any) -> list[Breach]:
    """Check 5: an open pot's balance against the entries no refund gave back."""
    tx, entry, account = (
        Transaction._meta.db_table,
        Entry._meta.db_table,
        Account._meta.db_table,
    )
    # 'refund:' || the entry key after 'entry:' (6 characters) is its refund's key.
    cursor.execute(
        f"""
        SELECT a.key, a.balance, COALESCE(h.total, 0)
        FROM {account} a
        LEFT JOIN (SELECT e.account_id, SUM(e.amount) AS total
                   FROM {entry} e JOIN {tx} t ON t.id = e.transaction_id
                   WHERE t.kind = 'entry' AND NOT EXISTS (
                       SELECT 1 FROM {tx} r
                       WHERE r.key = 'refund:' || SUBSTR(t.key, 7))
                   GROUP BY e.account_id) h ON h.account_id = a.id
        WHERE a.kind = 'escrow' AND a.state = 'open'
            AND a.balance <> COALESCE(h.total, 0)
        LIMIT {REPORT_LIMIT}
        """  # noqa: S608 - table names from the models, no user input
    )
    return [
        Breach("pot", key, f"open pot holds {balance} but unrefunded entries {held}")
        for key, balance, held in cursor.fetchall()
    ]


@dataclass(frozen=True)
class PotBooks:
    """What the ledger holds of the pots whose ``table_ref`` starts with a prefix
    (one kind of event's pots), for that kind's own audit against its rows."""

    held: dict[str, int]  # coins entered less coins refunded, by table_ref
    payouts: dict[str, int]  # payout transactions, by table_ref
    states: dict[str, str]  # the pot's escrow state, by table_ref


def pot_books(*, prefix: str) -> PotBooks:
    """The books of every pot whose ``table_ref`` starts with ``prefix``."""
    held: dict[str, int] = {}
    for ref, net in (
        Entry.objects.filter(
            transaction__kind__in=[Transaction.Kind.ENTRY, Transaction.Kind.REFUND],
            transaction__table_ref__startswith=prefix,
            account__kind=Account.Kind.WALLET,
        )
        .values_list("transaction__table_ref")
        .annotate(net=Sum("amount"))
        .order_by()
    ):
        held[ref] = -(net or 0)
    payouts = dict(
        Transaction.objects.filter(
            kind=Transaction.Kind.PAYOUT, table_ref__startswith=prefix
        )
        .values_list("table_ref")
        .annotate(n=Count("id"))
        .order_by()
    )
    states = {
        key.removeprefix("pot:"): state
        for key, state in Account.objects.filter(
            kind=Account.Kind.ESCROW, key__startswith=f"pot:{prefix}"
        ).values_list("key", "state")
    }
    return PotBooks(held=held, payouts=payouts, states=states)


def minted_keys(*, prefix: str, limit: int = 1000) -> list[str]:
    """The keys of every coin or XP minted under a name starting with ``prefix``
    (its ``table_ref``, or inside its key): for the kinds of event that mint
    nothing of their own, each of these is a breach."""
    minted = (
        Entry.objects.filter(account__kind=Account.Kind.MINT)
        .filter(
            Q(transaction__table_ref__startswith=prefix)
            | Q(transaction__key__contains=prefix)
        )
        .values_list("transaction__key", flat=True)
        .order_by("transaction__key")[:limit]
    )
    xp = XpAward.objects.filter(
        Q(table_ref__startswith=prefix) | Q(key__contains=prefix)
    ).values_list("key", flat=True)[:limit]
    return sorted({*minted, *xp})[:limit]
