"""Wallet writes: the sign-up grant, the daily bonus and operators' corrections."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from economy import conf
from economy.eligibility import earning_barred
from economy.errors import (
    AlreadyClaimed,
    EarningBarred,
    InvalidAmount,
    InvalidInput,
    UnknownAccount,
)
from economy.ledger import (
    accounts_lock,
    check_user_id,
    fingerprint_of,
    ledger_post,
    system_account,
    transaction_existing,
    wallets_ensure,
)
from economy.models import Account, Transaction


def _mint_to_wallet(
    *, key: str, kind: str, user_id: int, amount: int, memo: str = ""
) -> Transaction:
    """Precondition: inside ``transaction.atomic``."""
    wallet_id = wallets_ensure(user_ids=[user_id])[user_id]
    mint = system_account(kind=Account.Kind.MINT)
    wallet = accounts_lock(account_ids=[wallet_id])[wallet_id]
    fingerprint = fingerprint_of({"kind": kind, "user": user_id, "amount": amount})
    if posted := transaction_existing(key=key, fingerprint=fingerprint):
        return posted
    return ledger_post(
        key=key,
        kind=kind,
        legs=[(mint, -amount), (wallet, amount)],
        fingerprint=fingerprint,
        memo=memo,
    )


@transaction.atomic
def wallet_grant_signup(*, user_id: int) -> Transaction:
    """Give a new player the sign-up grant once (key ``signup:<user>``).

    Calling it again for the same user returns the first grant.
    """
    return _mint_to_wallet(
        key=f"signup:{user_id}",
        kind=Transaction.Kind.SIGNUP,
        user_id=user_id,
        amount=conf.signup_grant(),
    )


def daily_bonus_key(*, user_id: int, now: datetime | None = None) -> str:
    day = (now or timezone.now()).astimezone(UTC).date()
    return f"daily:{user_id}:{day.isoformat()}"


@transaction.atomic
def daily_bonus_claim(*, user_id: int, now: datetime | None = None) -> Transaction:
    """Pay the daily bonus, once per UTC day (key ``daily:<user>:<YYYY-MM-DD>``).

    Raises :class:`AlreadyClaimed` on a second claim the same UTC day. Concurrent
    claims queue on the wallet's row lock, so exactly one is paid.
    """
    check_user_id(user_id)
    if earning_barred(user_id=user_id):
        raise EarningBarred()
    key = daily_bonus_key(user_id=user_id, now=now)
    wallet_id = wallets_ensure(user_ids=[user_id])[user_id]
    accounts_lock(account_ids=[wallet_id])
    if Transaction.objects.filter(key=key).exists():
        raise AlreadyClaimed(
            "You already claimed today's bonus. The next one opens at 00:00 UTC."
        )
    return _mint_to_wallet(
        key=key,
        kind=Transaction.Kind.DAILY,
        user_id=user_id,
        amount=conf.daily_bonus(),
    )


@transaction.atomic
def ledger_correct(
    *,
    account_id: int,
    amount: int,
    reason: str,
    operator_id: int,
    request_key: str,
    counter_account_id: int | None = None,
) -> Transaction:
    """Post an operator's correcting transaction (never an edit of an old one).

    ``amount`` > 0 credits ``account_id`` from the counter account (the mint unless
    given), < 0 debits it to the counter account. ``reason`` is required and kept on
    the transaction with the operator. ``request_key`` (the form's nonce) makes a
    double submit harmless. Refused if a wallet or escrow would go below zero.
    """
    if type(amount) is not int or amount == 0:
        raise InvalidAmount(f"a correction must be a non-zero whole number: {amount!r}")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("a correction needs a reason")
    if not request_key or len(request_key) > 64:
        raise InvalidInput("a correction needs a request key of 1 to 64 characters")
    if not get_user_model().objects.filter(pk=operator_id).exists():
        raise InvalidInput(f"unknown operator {operator_id!r}")
    if counter_account_id is None:
        counter_account_id = system_account(kind=Account.Kind.MINT).pk
    if counter_account_id == account_id:
        raise InvalidInput("an account cannot be corrected against itself")
    accounts = {
        a.pk: a for a in Account.objects.filter(pk__in=[account_id, counter_account_id])
    }
    for pk in (account_id, counter_account_id):
        if pk not in accounts:
            raise UnknownAccount(f"unknown account {pk!r}")
    locked = accounts_lock(account_ids=accounts)
    accounts.update(locked)
    key = f"correction:{request_key}"
    fingerprint = fingerprint_of(
        {
            "kind": "correction",
            "account": account_id,
            "counter": counter_account_id,
            "amount": amount,
            "reason": reason,
        }
    )
    if posted := transaction_existing(key=key, fingerprint=fingerprint):
        return posted
    return ledger_post(
        key=key,
        kind=Transaction.Kind.CORRECTION,
        legs=[(accounts[account_id], amount), (accounts[counter_account_id], -amount)],
        fingerprint=fingerprint,
        table_ref=accounts[account_id].table_ref,
        reason=reason,
        operator_id=operator_id,
    )
