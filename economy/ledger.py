"""The ledger's core: account look-ups, row locks and posting a balanced transaction.

Lock order (the only one used anywhere, so two transactions never deadlock): escrow
accounts first, then wallets, each group in primary-key order. The mint and the shop
are never locked: they keep no denormalised balance, so they are not hot rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Case, IntegerField, Value, When

from economy.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    UnknownUser,
)
from economy.models import Account, Entry, Transaction

Leg = tuple[Account, int]

MINT_KEY = "mint"
SHOP_KEY = "shop"


def wallet_key(user_id: int) -> str:
    return f"wallet:{user_id}"


def escrow_key(table_ref: str) -> str:
    return f"pot:{table_ref}"


def fingerprint_of(data: dict[str, Any]) -> str:
    """A stable digest of what a request asked for (compared on key reuse)."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def check_table_ref(table_ref: str) -> None:
    if not isinstance(table_ref, str) or not table_ref or len(table_ref) > 64:
        raise InvalidInput("table_ref must be a non-empty string of at most 64 chars")
    if ":" in table_ref:
        raise InvalidInput("table_ref may not contain ':' (it is part of ledger keys)")


def check_user_id(user_id: object) -> int:
    if type(user_id) is not int or user_id <= 0:
        raise UnknownUser(f"not a user id: {user_id!r}")
    return user_id


def check_amount(amount: object) -> int:
    if type(amount) is not int or amount <= 0:
        raise InvalidAmount(f"amount must be a positive whole number, not {amount!r}")
    return amount


def system_account(*, kind: str) -> Account:
    """The mint or the shop (created on first use)."""
    if kind not in (Account.Kind.MINT, Account.Kind.SHOP):
        raise InvalidInput(f"not a system account: {kind!r}")
    account, _ = Account.objects.get_or_create(
        key=str(kind), defaults={"kind": kind, "balance": None}
    )
    return account


def wallets_ensure(*, user_ids: Iterable[int]) -> dict[int, int]:
    """Return ``{user_id: wallet account id}``, creating missing wallets (balance 0).

    Raises :class:`UnknownUser` if any user does not exist.
    """
    wanted = {check_user_id(uid) for uid in user_ids}
    found = dict(
        Account.objects.filter(
            kind=Account.Kind.WALLET, user_id__in=wanted
        ).values_list("user_id", "pk")
    )
    missing = wanted - found.keys()
    if missing:
        existing = set(
            get_user_model().objects.filter(pk__in=missing).values_list("pk", flat=True)
        )
        if unknown := sorted(missing - existing):
            raise UnknownUser(f"unknown user id(s): {unknown}")
        for uid in sorted(missing):
            account, _ = Account.objects.get_or_create(
                key=wallet_key(uid),
                defaults={"kind": Account.Kind.WALLET, "user_id": uid, "balance": 0},
            )
            found[uid] = account.pk
    return found


def accounts_lock(*, account_ids: Iterable[int]) -> dict[int, Account]:
    """Lock wallet and escrow rows (escrows first, then wallets, by pk); return them.

    Precondition: called inside ``transaction.atomic``. A caller that already holds
    escrow locks may lock wallets next, never the other way round.
    """
    ids = set(account_ids)
    rank = Case(
        When(kind=Account.Kind.ESCROW, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    rows = (
        Account.objects.select_for_update()
        .filter(pk__in=ids, kind__in=[Account.Kind.ESCROW, Account.Kind.WALLET])
        .annotate(lock_rank=rank)
        .order_by("lock_rank", "pk")
    )
    return {account.pk: account for account in rows}


def transaction_existing(*, key: str, fingerprint: str) -> Transaction | None:
    """The transaction already posted under ``key``, if its content matches.

    Raises :class:`IdempotencyConflict` when the key was used for other content.
    """
    posted = Transaction.objects.filter(key=key).first()
    if posted is not None and posted.fingerprint != fingerprint:
        raise IdempotencyConflict(
            f"idempotency key {key!r} was already used for different content"
        )
    return posted


def ledger_post(
    *,
    key: str,
    kind: str,
    legs: Sequence[Leg],
    fingerprint: str,
    table_ref: str = "",
    memo: str = "",
    reason: str = "",
    operator_id: int | None = None,
) -> Transaction:
    """Post one balanced transaction and move the balances of its accounts.

    Preconditions: inside ``transaction.atomic``; every wallet and escrow in ``legs``
    was locked by :func:`accounts_lock` in this transaction (so ``balance`` is
    current); the caller checked ``key`` with :func:`transaction_existing`.
    Raises before writing anything if the legs do not sum to zero, an amount is not a
    non-zero whole number, an account appears twice, or a balance would go negative.
    """
    if not key or len(key) > 200:
        raise InvalidInput("a transaction needs a key of 1 to 200 characters")
    if len(legs) < 2:
        raise InvalidInput("a transaction needs at least two entries")
    seen: set[int] = set()
    for account, amount in legs:
        if type(amount) is not int or amount == 0:
            raise InvalidAmount(f"an entry must be a non-zero whole number: {amount!r}")
        if account.pk in seen:
            raise InvalidInput(f"account {account.key} appears twice")
        seen.add(account.pk)
    if sum(amount for _, amount in legs) != 0:
        raise InvalidInput("the entries of a transaction must sum to zero")
    for account, amount in legs:
        if account.balance is not None and account.balance + amount < 0:
            raise InsufficientFunds(
                f"{account.key} holds {account.balance} coins, {-amount} needed"
            )
    try:
        # A savepoint, so a key taken concurrently for other accounts is a clear error.
        with transaction.atomic():
            posted = Transaction.objects.create(
                key=key,
                kind=kind,
                table_ref=table_ref,
                fingerprint=fingerprint,
                memo=memo,
                reason=reason,
                operator_id=operator_id,
            )
    except IntegrityError as exc:
        raise IdempotencyConflict(f"idempotency key {key!r} is already used") from exc
    Entry.objects.bulk_create(
        Entry(transaction=posted, account=account, amount=amount)
        for account, amount in legs
    )
    tracked = []
    for account, amount in legs:
        if account.balance is not None:
            account.balance += amount
            tracked.append(account)
    Account.objects.bulk_update(tracked, ["balance"])
    return posted
