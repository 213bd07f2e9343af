"""Faults: an exception in the middle of a settlement leaves nothing behind."""

import pytest

from economy.models import Account, Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from economy.services import pot_entry_pay, pot_settle
from tests.economy.conftest import assert_sound, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


class Injected(RuntimeError):
    pass


@pytest.mark.parametrize("where", ["bulk_update", "update"])
def test_exception_mid_settlement_leaves_no_partial_transaction(
    player, monkeypatch, where
):
    users = [player(250) for _ in range(4)]
    for user in users:
        pot_entry_pay(table_ref="42", user_id=user.pk, amount=250)
    before = snapshot()

    # After the transaction row and its entries are written: balances, then state.
    def boom(*args, **kwargs):
        raise Injected(where)

    if where == "bulk_update":
        monkeypatch.setattr(Account.objects, "bulk_update", boom)
    else:
        monkeypatch.setattr(
            "django.db.models.query.QuerySet.update", boom, raising=True
        )
    with pytest.raises(Injected):
        pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    monkeypatch.undo()

    assert snapshot() == before
    assert not Transaction.objects.filter(key="payout:42").exists()
    assert (pot_balance(table_ref="42"), pot_state(table_ref="42")) == (1000, "open")
    assert_sound()
    pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    assert wallet_balance(user_id=users[0].pk) == 1000
    assert_sound()
