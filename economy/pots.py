"""Pots: entry fees held in a table's escrow, refunded or paid out whole.

Each pot is an escrow account (key ``pot:<table_ref>``) whose ``state`` records the
table's fate without knowing tables: ``open`` takes entries; ``refunded`` (cancelled
table) and ``settled`` (finished table) are final and must hold zero coins, which
the audit checks.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, transaction

from economy import conf
from economy.errors import (
    EconomyError,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    PotClosed,
    PotNotFound,
)
from economy.ledger import (
    TRANSACTIONS,
    accounts_lock,
    check_table_ref,
    check_user_id,
    escrow_ensure,
    escrow_key,
    escrow_wallets_lock,
    fingerprint_of,
    ledger_post,
    transaction_existing,
    wallets_ensure,
)
from economy.models import Account, Entry, Transaction


def _entries_paid(*, table_ref: str) -> list[tuple[int, int, int]]:
    """``(wallet account id, user id, amount)`` of every entry paid, in paying order."""
    rows = (
        Entry.objects.filter(
            transaction__kind=Transaction.Kind.ENTRY,
            transaction__table_ref=table_ref,
            amount__lt=0,
        )
        .order_by("transaction_id")
        .values_list("account_id", "account__user_id", "amount")
    )
    return [(account_id, user_id, -amount) for account_id, user_id, amount in rows]


def pot_open(*, table_ref: str) -> None:
    """Open the table's pot (an empty escrow) unless it exists; lock nothing.

    Optional: the first entry opens a missing pot. A table that opens its pot when
    it is created spares its first sitter those statements. One statement, so
    atomic without a savepoint of its own.
    """
    check_table_ref(table_ref)
    escrow_ensure(table_ref=table_ref)


@transaction.atomic
def pot_entry_pay(*, table_ref: str, user_id: int, amount: int) -> Transaction:
    """Move an entry fee from the player's wallet into the table's pot.

    Preconditions: ``amount`` is one of the entry fees (100/250/500/1000) and equals
    the pot's earlier entries; the pot is open; the wallet holds the coins. Paying
    again for the same table and user with the same amount returns the first payment
    (key ``entry:<table>:<user>``).
    """
    return pot_entry_post(table_ref=table_ref, user_id=user_id, amount=amount)


def pot_entry_post(*, table_ref: str, user_id: int, amount: int) -> Transaction:
    """:func:`pot_entry_pay` in the caller's ``transaction.atomic``, without a
    savepoint of its own: for a caller that rolls back on any error it does not
    handle. A refusal (``PotClosed``, ``InvalidAmount``, ``InsufficientFunds``)
    raises before anything is written and leaves the transaction usable: the
    caller may still read (a wallet's balance, say) before it rolls back."""
    check_table_ref(table_ref)
    check_user_id(user_id)
    if type(amount) is not int or amount not in conf.entry_fees():
        fees = ", ".join(str(f) for f in sorted(conf.entry_fees()))
        raise InvalidAmount(f"The entry fee is one of {fees} coins.")
    escrow, wallets = escrow_wallets_lock(table_ref=table_ref, user_ids=[user_id])
    if escrow is None or user_id not in wallets:
        # A new pot or a new player: create what is missing, then lock. Nothing
        # is locked while the escrow is missing, so the lock order holds.
        wallets_ensure(user_ids=[user_id])
        if escrow is None:
            escrow_ensure(table_ref=table_ref)
        escrow, wallets = escrow_wallets_lock(table_ref=table_ref, user_ids=[user_id])
        if escrow is None:
            raise PotNotFound(f"table {table_ref} has no pot")
    key = f"entry:{table_ref}:{user_id}"
    fingerprint = fingerprint_of(
        {"kind": "entry", "table": table_ref, "user": user_id, "amount": amount}
    )
    try:
        if escrow.state != Account.State.OPEN:
            raise PotClosed("This table's pot is closed: it takes no more entries.")
        if escrow.entry_fee not in (None, amount):
            raise InvalidAmount(f"This table's entry fee is {escrow.entry_fee} coins.")
        return ledger_post(
            key=key,
            kind=Transaction.Kind.ENTRY,
            legs=[(wallets[user_id], -amount), (escrow, amount)],
            fingerprint=fingerprint,
            table_ref=table_ref,
            escrow_set={"entry_fee": amount} if escrow.entry_fee is None else None,
        )
    except (PotClosed, InvalidAmount, InsufficientFunds, IdempotencyConflict):
        # Refused before anything was written. A repeat of an earlier payment is
        # not refused: it returns that payment (or raises IdempotencyConflict if
        # it asked for something else), whatever the pot and wallet hold now. The
        # key is only ever posted under this escrow's lock, so this look-up after
        # the fact sees the same as one before would have.
        if posted := transaction_existing(key=key, fingerprint=fingerprint):
            return posted
        raise


@transaction.atomic
def pot_refund_all(*, table_ref: str) -> list[Transaction]:
    """Refund every entry of a cancelled table and mark its pot ``refunded``.

    A table nobody paid into has no pot: nothing happens and ``[]`` is returned.
    Refunding again returns the refunds already made. Raises :class:`PotClosed` if
    the pot was settled.
    """
    check_table_ref(table_ref)
    escrow_id = (
        Account.objects.filter(key=escrow_key(table_ref))
        .values_list("pk", flat=True)
        .first()
    )
    if escrow_id is None:
        return []
    escrow = accounts_lock(account_ids=[escrow_id])[escrow_id]
    if escrow.state == Account.State.REFUNDED:
        return list(
            Transaction.objects.filter(
                kind=Transaction.Kind.REFUND, table_ref=table_ref
            ).order_by("pk")
        )
    if escrow.state != Account.State.OPEN:
        raise PotClosed(f"the pot of table {table_ref} is {escrow.state}")
    paid = _entries_paid(table_ref=table_ref)
    # Entries already given back one by one (``pot_entry_refund``) are not held.
    given_back = set(
        Transaction.objects.filter(
            kind=Transaction.Kind.REFUND, table_ref=table_ref
        ).values_list("key", flat=True)
    )
    held = sum(a for _, u, a in paid if f"refund:{table_ref}:{u}" not in given_back)
    if held != escrow.balance:
        raise EconomyError(
            f"pot {table_ref} holds {escrow.balance} coins but its entries total "
            f"{held}: an operator must look at it"
        )
    wallets = accounts_lock(account_ids=[account_id for account_id, _, _ in paid])
    refunds = []
    for account_id, user_id, amount in paid:
        key = f"refund:{table_ref}:{user_id}"
        fingerprint = fingerprint_of(
            {"kind": "refund", "table": table_ref, "user": user_id, "amount": amount}
        )
        refunds.append(
            transaction_existing(key=key, fingerprint=fingerprint)
            or ledger_post(
                key=key,
                kind=Transaction.Kind.REFUND,
                legs=[(escrow, -amount), (wallets[account_id], amount)],
                fingerprint=fingerprint,
                table_ref=table_ref,
            )
        )
    Account.objects.filter(pk=escrow_id).update(state=Account.State.REFUNDED)
    return refunds


@transaction.atomic
def pot_entry_refund(*, table_ref: str, user_id: int) -> Transaction:
    """Give one player's entry back from an open pot (they stood up before the start).

    Key ``refund:<table>:<user>``, the same as ``pot_refund_all``'s, so an entry is
    refunded at most once either way; refunding again returns the first refund. The
    player's entry key stays spent: they cannot pay into this pot again. Raises
    :class:`PotNotFound` without a pot, :class:`InvalidInput` if the player paid no
    entry, :class:`PotClosed` if the pot is no longer open.
    """
    check_table_ref(table_ref)
    check_user_id(user_id)
    escrow, wallets = escrow_wallets_lock(table_ref=table_ref, user_ids=[user_id])
    if escrow is None:
        raise PotNotFound(f"table {table_ref} has no pot")
    paid = [p for p in _entries_paid(table_ref=table_ref) if p[1] == user_id]
    if not paid or user_id not in wallets:
        raise InvalidInput(f"user {user_id} did not pay into pot {table_ref}")
    amount = paid[0][2]
    key = f"refund:{table_ref}:{user_id}"
    fingerprint = fingerprint_of(
        {"kind": "refund", "table": table_ref, "user": user_id, "amount": amount}
    )
    if posted := transaction_existing(key=key, fingerprint=fingerprint):
        return posted
    if escrow.state != Account.State.OPEN:
        raise PotClosed(f"the pot of table {table_ref} is {escrow.state}")
    return ledger_post(
        key=key,
        kind=Transaction.Kind.REFUND,
        legs=[(escrow, -amount), (wallets[user_id], amount)],
        fingerprint=fingerprint,
        table_ref=table_ref,
    )


@transaction.atomic
def pot_settle(*, table_ref: str, winner_user_ids: Sequence[int]) -> Transaction:
    """Pay the whole pot to its winners, no commission, and mark it ``settled``.

    ``winner_user_ids`` come in seat order: the pot is split evenly and the
    indivisible remainder goes to the first, so no coin is created or lost. Every
    winner must have paid an entry into this pot. Settling again with the same
    winners returns the first payout (key ``payout:<table>``); with other winners it
    raises :class:`IdempotencyConflict`. Raises :class:`PotNotFound` for a table
    without a pot and :class:`PotClosed` for a refunded one.
    """
    check_table_ref(table_ref)
    winners = [check_user_id(uid) for uid in winner_user_ids]
    if not winners:
        raise InvalidInput("a pot needs at least one winner")
    if len(set(winners)) != len(winners):
        raise InvalidInput(f"a winner appears twice: {winners}")
    escrow, wallets = escrow_wallets_lock(table_ref=table_ref, user_ids=winners)
    if escrow is None:
        raise PotNotFound(f"table {table_ref} has no pot")
    key = f"payout:{table_ref}"
    fingerprint = fingerprint_of(
        {"kind": "payout", "table": table_ref, "winners": winners}
    )
    # One look-up under the escrow's lock: an earlier payout, and the winners'
    # entries (``entry:<table>:<user>`` is posted only by pot_entry_pay).
    entry_keys = {f"entry:{table_ref}:{uid}": uid for uid in winners}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT key, id, fingerprint FROM {TRANSACTIONS} "  # noqa: S608
            f"WHERE key IN ({', '.join(['%s'] * (len(entry_keys) + 1))})",
            [key, *entry_keys],
        )
        found = {row[0]: row[1:] for row in cursor.fetchall()}
    if key in found:
        posted_id, posted_fingerprint = found[key]
        if posted_fingerprint != fingerprint:
            raise IdempotencyConflict(
                f"idempotency key {key!r} was already used for different content"
            )
        return Transaction.objects.get(pk=posted_id)
    if escrow.state != Account.State.OPEN:
        raise PotClosed(f"the pot of table {table_ref} is {escrow.state}")
    if strangers := [uid for k, uid in entry_keys.items() if k not in found]:
        raise InvalidInput(f"user(s) {strangers} did not pay into pot {table_ref}")
    total = escrow.balance or 0  # an escrow always keeps a balance
    share, remainder = divmod(total, len(winners))
    legs = [(escrow, -total)]
    for index, uid in enumerate(winners):
        amount = share + (remainder if index == 0 else 0)
        if amount:
            legs.append((wallets[uid], amount))
    return ledger_post(
        key=key,
        kind=Transaction.Kind.PAYOUT,
        legs=legs,
        fingerprint=fingerprint,
        table_ref=table_ref,
        escrow_set={"state": Account.State.SETTLED.value},
    )
