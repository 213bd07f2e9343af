"""Fixtures of the economy tests: funded players and ledger snapshots."""

from __future__ import annotations

import itertools

import pytest
from django.db import transaction

from economy.audit import ledger_audit
from economy.models import Account, Entry, Transaction, XpAward
from economy.selectors import wallet_balance
from economy.wallets import _mint_to_wallet

_fund_ids = itertools.count(1)


def fund(user_id: int, amount: int) -> None:
    """Give a player coins from the mint (a test-only grant)."""
    with transaction.atomic():
        _mint_to_wallet(
            key=f"test-fund:{user_id}:{next(_fund_ids)}",
            kind=Transaction.Kind.SIGNUP,
            user_id=user_id,
            amount=amount,
        )


def snapshot() -> tuple:
    """Everything the ledger holds, to prove a refused call wrote nothing."""
    return (
        list(Transaction.objects.order_by("pk").values_list("pk", "key")),
        list(Entry.objects.order_by("pk").values_list("pk", "amount")),
        list(Account.objects.order_by("pk").values_list("pk", "balance", "state")),
        list(XpAward.objects.order_by("pk").values_list("pk", "amount")),
    )


def assert_sound() -> None:
    assert ledger_audit() == []
    assert not Account.objects.filter(balance__lt=0).exists()


@pytest.fixture
def player(make_user):
    """``player(coins)`` makes a user whose wallet holds ``coins``."""

    def make(coins: int = 0, **kwargs):
        user = make_user(**kwargs)
        if coins:
            fund(user.pk, coins)
        assert wallet_balance(user_id=user.pk) == coins
        return user

    return make
