"""Pots: entry fees held in a table's escrow, refunded or paid out whole.

Each pot is an escrow account (key ``pot:<table_ref>``) whose ``state`` records the
table's fate without knowing tables: ``open`` takes entries; ``refunded`` (cancelled
table) and ``settled`` (finished table) are final and must hold zero coins, which
the audit checks.

One entry per sitting (RULES.md §5): a player who stood up (refunded) and sits down
again pays again. Sitting ``n`` of a player at a table is paid under
``entry:<table>:<user>`` for ``n`` = 1 and ``entry:<table>:<user>:<n>`` after, and
refunded under ``refund:`` with the same tail, so an open pot holds exactly its
unrefunded entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


def sitting_keys(*, table_ref: str, user_id: int, sitting: int) -> tuple[str, str]:
    """The entry and refund keys of a player's ``sitting``-th sitting at a table.

    The first sitting keeps the short keys, so pots paid before sittings were
    numbered read the same.
    """
    tail = "" if sitting == 1 else f":{sitting}"
    return (
        f"entry:{table_ref}:{user_id}{tail}",
        f"refund:{table_ref}:{user_id}{tail}",
    )


def _sitting_of(key: str) -> tuple[int, int]:
    """``(user id, sitting number)`` of an ``entry:`` or ``refund:`` key (a table
    ref never holds ``:``)."""
    parts = key.split(":")
    return int(parts[2]), int(parts[3]) if len(parts) > 3 else 1


def _fingerprint(
    *, kind: str, table_ref: str, user_id: int, amount: int, sitting: int
) -> str:
    data: dict[str, object] = {
        "kind": kind,
        "table": table_ref,
        "user": user_id,
        "amount": amount,
    }
    if sitting > 1:
        data["sitting"] = sitting
    return fingerprint_of(data)


@dataclass(frozen=True)
class Sitting:
    """One entry paid into a pot, and whether it was given back."""

    user_id: int
    number: int
    amount: int
    wallet_id: int
    refunded: bool


def _sittings(*, table_ref: str, user_id: int | None = None) -> list[Sitting]:
    """Every entry paid into the pot (of one player, given ``user_id``), in paying
    order, each marked refunded or not: one query over the wallets' legs."""
    legs = Entry.objects.filter(
        transaction__table_ref=table_ref,
        transaction__kind__in=(Transaction.Kind.ENTRY, Transaction.Kind.REFUND),
        account__kind=Account.Kind.WALLET,
    )
    if user_id is not None:
        legs = legs.filter(account__user_id=user_id)
    rows = legs.order_by("transaction_id").values_list(
        "transaction__kind", "transaction__key", "account_id", "amount"
    )
    paid: dict[tuple[int, int], tuple[int, int]] = {}
    refunded: set[tuple[int, int]] = set()
    for kind, key, account_id, amount in rows:
        if kind == Transaction.Kind.ENTRY:
            paid[_sitting_of(key)] = (account_id, -amount)
        else:
            refunded.add(_sitting_of(key))
    return [
        Sitting(user, number, amount, account_id, (user, number) in refunded)
        for (user, number), (account_id, amount) in paid.items()
    ]


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
    the pot's earlier entries; the pot is open; the wallet holds the coins. One
    entry per sitting: paying again while the player's entry is held returns that
    payment (a repeat); paying after it was refunded is a new sitting and pays
    again (keys in the module's docstring).
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
    # The first sitting's key is tried blind (the hot path: no look-up first);
    # later sittings are numbered only once that key is found taken.
    key, _ = sitting_keys(table_ref=table_ref, user_id=user_id, sitting=1)
    try:
        if escrow.state != Account.State.OPEN:
            raise PotClosed("This table's pot is closed: it takes no more entries.")
        if escrow.entry_fee not in (None, amount):
            raise InvalidAmount(f"This table's entry fee is {escrow.entry_fee} coins.")
        return _entry_post(
            table_ref=table_ref,
            user_id=user_id,
            accounts=(escrow, wallets[user_id]),
            sitting=1,
            amount=amount,
        )
    except (PotClosed, InvalidAmount, InsufficientFunds, IdempotencyConflict) as exc:
        # Nothing was written. Every key of this pot is posted under the escrow's
        # lock, which this transaction holds: the look-up sees what a look-up
        # before would have.
        mine = _sittings(table_ref=table_ref, user_id=user_id)
        if not mine:
            raise
        current = mine[-1]
        if not current.refunded:
            # A repeat of the sitting being paid: that payment, whatever the pot
            # and wallet hold now (IdempotencyConflict for another amount).
            entry_key, _ = sitting_keys(
                table_ref=table_ref, user_id=user_id, sitting=current.number
            )
            fingerprint = _fingerprint(
                kind="entry",
                table_ref=table_ref,
                user_id=user_id,
                amount=amount,
                sitting=current.number,
            )
            posted = transaction_existing(key=entry_key, fingerprint=fingerprint)
            assert posted is not None, "an entry leg belongs to a posted entry"
            return posted
        if not isinstance(exc, IdempotencyConflict):
            raise
        # The last sitting was refunded: this is a new sitting, paid again.
        return _entry_post(
            table_ref=table_ref,
            user_id=user_id,
            accounts=(escrow, wallets[user_id]),
            sitting=current.number + 1,
            amount=amount,
        )


def _entry_post(
    *,
    table_ref: str,
    user_id: int,
    accounts: tuple[Account, Account],
    sitting: int,
    amount: int,
) -> Transaction:
    """Post the entry of the player's ``sitting``-th sitting; ``accounts`` are the
    pot's escrow and the player's wallet, both locked."""
    escrow, wallet = accounts
    key, _ = sitting_keys(table_ref=table_ref, user_id=user_id, sitting=sitting)
    return ledger_post(
        key=key,
        kind=Transaction.Kind.ENTRY,
        legs=[(wallet, -amount), (escrow, amount)],
        fingerprint=_fingerprint(
            kind="entry",
            table_ref=table_ref,
            user_id=user_id,
            amount=amount,
            sitting=sitting,
        ),
        table_ref=table_ref,
        escrow_set={"entry_fee": amount} if escrow.entry_fee is None else None,
    )


@transaction.atomic
def pot_refund_all(*, table_ref: str) -> list[Transaction]:
    """Refund every entry still held by a cancelled table and mark its pot
    ``refunded``; return the refund of every entry ever paid into it.

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
    sittings = _sittings(table_ref=table_ref)
    held = sum(s.amount for s in sittings if not s.refunded)
    if held != escrow.balance:
        raise EconomyError(
            f"pot {table_ref} holds {escrow.balance} coins but its entries total "
            f"{held}: an operator must look at it"
        )
    wallets = accounts_lock(account_ids=[s.wallet_id for s in sittings])
    refunds = []
    for sitting in sittings:
        key, fingerprint = _refund_key(table_ref=table_ref, sitting=sitting)
        refunds.append(
            transaction_existing(key=key, fingerprint=fingerprint)
            or ledger_post(
                key=key,
                kind=Transaction.Kind.REFUND,
                legs=[
                    (escrow, -sitting.amount),
                    (wallets[sitting.wallet_id], sitting.amount),
                ],
                fingerprint=fingerprint,
                table_ref=table_ref,
            )
        )
    Account.objects.filter(pk=escrow_id).update(state=Account.State.REFUNDED)
    return refunds


def _refund_key(*, table_ref: str, sitting: Sitting) -> tuple[str, str]:
    """The key and fingerprint of the refund of ``sitting``."""
    _, key = sitting_keys(
        table_ref=table_ref, user_id=sitting.user_id, sitting=sitting.number
    )
    fingerprint = _fingerprint(
        kind="refund",
        table_ref=table_ref,
        user_id=sitting.user_id,
        amount=sitting.amount,
        sitting=sitting.number,
    )
    return key, fingerprint


@transaction.atomic
def pot_entry_refund(*, table_ref: str, user_id: int) -> Transaction:
    """Give back the entry a player holds in an open pot (they stood up before the
    start).

    The refund key follows the sitting (``refund:<table>:<user>[:<n>]``, the same as
    ``pot_refund_all``'s), so an entry is refunded at most once either way;
    refunding again, with nothing held, returns the last refund. Sitting down
    again afterwards pays a new entry. Raises :class:`PotNotFound` without a pot,
    :class:`InvalidInput` if the player paid no entry, :class:`PotClosed` if the
    pot is no longer open.
    """
    check_table_ref(table_ref)
    check_user_id(user_id)
    escrow, wallets = escrow_wallets_lock(table_ref=table_ref, user_ids=[user_id])
    if escrow is None:
        raise PotNotFound(f"table {table_ref} has no pot")
    mine = _sittings(table_ref=table_ref, user_id=user_id)
    if not mine or user_id not in wallets:
        raise InvalidInput(f"user {user_id} did not pay into pot {table_ref}")
    current = mine[-1]
    key, fingerprint = _refund_key(table_ref=table_ref, sitting=current)
    if current.refunded:
        posted = transaction_existing(key=key, fingerprint=fingerprint)
        assert posted is not None, "a refund leg belongs to a posted refund"
        return posted
    if escrow.state != Account.State.OPEN:
        raise PotClosed(f"the pot of table {table_ref} is {escrow.state}")
    return ledger_post(
        key=key,
        kind=Transaction.Kind.REFUND,
        legs=[(escrow, -current.amount), (wallets[user_id], current.amount)],
        fingerprint=fingerprint,
        table_ref=table_ref,
    )


@transaction.atomic
def pot_settle(*, table_ref: str, winner_user_ids: Sequence[int]) -> Transaction:
    """Pay the whole pot to its winners, no commission, and mark it ``settled``.

    ``winner_user_ids`` come in seat order: the pot is split evenly and the
    indivisible remainder goes to the first, so no coin is created or lost. Every
    winner must hold an entry in this pot (paid and not refunded). Settling again
    with the same winners returns the first payout (key ``payout:<table>``); with
    other winners it raises :class:`IdempotencyConflict`. Raises
    :class:`PotNotFound` for a table without a pot and :class:`PotClosed` for a
    refunded one.
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
    # One look-up under the escrow's lock: an earlier payout, and the pot's
    # entries and refunds (posted only here, under the same lock).
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT key, kind, id, fingerprint FROM {TRANSACTIONS} "  # noqa: S608
            "WHERE key = %s OR (table_ref = %s AND kind IN (%s, %s))",
            [key, table_ref, Transaction.Kind.ENTRY, Transaction.Kind.REFUND],
        )
        found = cursor.fetchall()
    payout = next((row[2:] for row in found if row[0] == key), None)
    if payout is not None:
        posted_id, posted_fingerprint = payout
        if posted_fingerprint != fingerprint:
            raise IdempotencyConflict(
                f"idempotency key {key!r} was already used for different content"
            )
        return Transaction.objects.get(pk=posted_id)
    if escrow.state != Account.State.OPEN:
        raise PotClosed(f"the pot of table {table_ref} is {escrow.state}")
    paid = {_sitting_of(k) for k, kind, *_ in found if kind == Transaction.Kind.ENTRY}
    paid -= {_sitting_of(k) for k, kind, *_ in found if kind == Transaction.Kind.REFUND}
    holders = {user for user, _ in paid}
    if strangers := [uid for uid in winners if uid not in holders]:
        raise InvalidInput(f"user(s) {strangers} hold no entry in pot {table_ref}")
    total = escrow.balance or 0  # an escrow always keeps a balance
    share, remainder = divmod(total, len(winners))
    amounts = [share + (remainder if i == 0 else 0) for i in range(len(winners))]
    return _payout_post(
        key=key,
        fingerprint=fingerprint,
        table_ref=table_ref,
        escrow=escrow,
        credits=[
            (wallets[uid], amount) for uid, amount in zip(winners, amounts, strict=True)
        ],
    )


def _payout_post(
    *,
    key: str,
    fingerprint: str,
    table_ref: str,
    escrow: Account,
    credits: Sequence[tuple[Account, int]],
) -> Transaction:
    """Empty the escrow into the payees' wallets (zero amounts left out) and mark
    the pot ``settled``, in one ledger transaction."""
    total = sum(amount for _, amount in credits)
    legs = [
        (escrow, -total),
        *((wallet, amount) for wallet, amount in credits if amount),
    ]
    return ledger_post(
        key=key,
        kind=Transaction.Kind.PAYOUT,
        legs=legs,
        fingerprint=fingerprint,
        table_ref=table_ref,
        escrow_set={"state": Account.State.SETTLED.value},
    )


def places_split(*, total: int, shares: Sequence[int]) -> list[int]:
    """Split ``total`` coins by percentage ``shares`` (best place first, summing to
    100): each place gets its share rounded down, and the coins the rounding left
    go to the first place, so the amounts always sum to ``total``."""
    amounts = [total * share // 100 for share in shares]
    amounts[0] += total - sum(amounts)
    return amounts


@transaction.atomic
def pot_settle_places(
    *, table_ref: str, places: Sequence[int], shares: Sequence[int]
) -> Transaction:
    """Pay the whole pot by finishing place, no commission, and mark it ``settled``.

    ``places`` are the payees' user ids, best first; place ``i`` receives
    ``shares[i]`` percent (``shares`` are whole percentages summing to 100, one
    per payee, best first). Each amount is rounded down and the coins the rounding
    left go to the best-placed payee (:func:`places_split`), so no coin is created
    or lost. Every payee must hold an entry in this pot (paid and not refunded).

    Idempotent under the key ``payout:<table_ref>``: settling again (or a
    concurrent settle that waited for the escrow's lock) with the same places and
    shares returns the first payout; with others it raises
    :class:`IdempotencyConflict`. Raises :class:`PotNotFound` for a missing pot,
    :class:`PotClosed` for a refunded one and :class:`InvalidInput` for bad places
    or shares.
    """
    check_table_ref(table_ref)
    payees = [check_user_id(uid) for uid in places]
    cuts = list(shares)
    if any(type(s) is not int or s <= 0 for s in cuts) or sum(cuts) != 100:
        raise InvalidInput(f"shares must be positive whole percentages: {cuts}")
    if len(payees) != len(cuts):
        raise InvalidInput(f"{len(cuts)} shares for {len(payees)} places")
    if len(set(payees)) != len(payees):
        raise InvalidInput(f"a payee appears twice: {payees}")
    escrow, wallets = escrow_wallets_lock(table_ref=table_ref, user_ids=payees)
    if escrow is None:
        raise PotNotFound(f"table {table_ref} has no pot")
    key = f"payout:{table_ref}"
    fingerprint = fingerprint_of(
        {"kind": "payout", "table": table_ref, "places": payees, "shares": cuts}
    )
    if (posted := transaction_existing(key=key, fingerprint=fingerprint)) is not None:
        return posted
    if escrow.state != Account.State.OPEN:
        raise PotClosed(f"the pot of table {table_ref} is {escrow.state}")
    holders = {s.user_id for s in _sittings(table_ref=table_ref) if not s.refunded}
    if strangers := [uid for uid in payees if uid not in holders]:
        raise InvalidInput(f"user(s) {strangers} hold no entry in pot {table_ref}")
    total = escrow.balance or 0  # an escrow always keeps a balance
    amounts = places_split(total=total, shares=cuts)
    return _payout_post(
        key=key,
        fingerprint=fingerprint,
        table_ref=table_ref,
        escrow=escrow,
        credits=[
            (wallets[uid], amount) for uid, amount in zip(payees, amounts, strict=True)
        ],
    )
