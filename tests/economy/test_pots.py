"""Pots: golden cases, idempotency, closed pots and bad input."""

import pytest

from economy.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    PotClosed,
    PotNotFound,
    UnknownUser,
)
from economy.models import Account, Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from economy.services import pot_entry_pay, pot_refund_all, pot_settle
from tests.economy.conftest import assert_sound, snapshot

pytestmark = pytest.mark.django_db


def seat_four(player, fee=250, coins=250, table="42"):
    users = [player(coins) for _ in range(4)]
    for user in users:
        pot_entry_pay(table_ref=table, user_id=user.pk, amount=fee)
    return users


def test_four_entries_of_250_to_one_winner(player):
    users = seat_four(player)
    assert pot_balance(table_ref="42") == 1000
    assert [wallet_balance(user_id=u.pk) for u in users] == [0, 0, 0, 0]

    payout = pot_settle(table_ref="42", winner_user_ids=[users[2].pk])

    assert payout.key == "payout:42"
    assert [wallet_balance(user_id=u.pk) for u in users] == [0, 0, 1000, 0]
    assert pot_balance(table_ref="42") == 0
    assert pot_state(table_ref="42") == "settled"
    assert sum(e.amount for e in payout.entries.all()) == 0
    assert_sound()


def test_partnership_splits_the_pot(player):
    users = seat_four(player)
    pot_settle(table_ref="42", winner_user_ids=[users[0].pk, users[2].pk])
    assert [wallet_balance(user_id=u.pk) for u in users] == [500, 0, 500, 0]
    assert_sound()


def test_remainder_goes_to_the_winner_who_sat_first(player):
    users = seat_four(player)
    # A three-way tie: 1000 / 3 = 333 rest 1, the rest to the first in seat order.
    pot_settle(table_ref="42", winner_user_ids=[users[3].pk, users[1].pk, users[2].pk])
    assert [wallet_balance(user_id=u.pk) for u in users] == [0, 333, 333, 334]
    assert_sound()


def test_refund_returns_every_entry(player):
    users = seat_four(player, fee=100, coins=300)
    refunds = pot_refund_all(table_ref="42")
    assert [t.key for t in refunds] == [f"refund:42:{u.pk}" for u in users]
    assert [wallet_balance(user_id=u.pk) for u in users] == [300] * 4
    assert pot_state(table_ref="42") == "refunded"
    assert_sound()


def test_refund_of_a_table_nobody_paid_is_empty():
    assert pot_refund_all(table_ref="7") == []
    assert not Transaction.objects.exists()


def test_settling_twice_changes_nothing(player):
    users = seat_four(player)
    first = pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    before = snapshot()
    again = pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    assert again.pk == first.pk
    assert snapshot() == before


def test_refunding_twice_changes_nothing(player):
    seat_four(player)
    first = pot_refund_all(table_ref="42")
    before = snapshot()
    assert [t.pk for t in pot_refund_all(table_ref="42")] == [t.pk for t in first]
    assert snapshot() == before


def test_paying_the_same_entry_twice_changes_nothing(player):
    user = player(1000)
    first = pot_entry_pay(table_ref="9", user_id=user.pk, amount=250)
    before = snapshot()
    assert pot_entry_pay(table_ref="9", user_id=user.pk, amount=250).pk == first.pk
    assert snapshot() == before
    assert wallet_balance(user_id=user.pk) == 750


def test_settling_again_with_other_winners_is_refused(player):
    users = seat_four(player)
    pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    before = snapshot()
    with pytest.raises(IdempotencyConflict):
        pot_settle(table_ref="42", winner_user_ids=[users[1].pk])
    assert snapshot() == before


def test_entry_key_reused_with_another_amount_is_refused(player):
    user = player(1000)
    pot_entry_pay(table_ref="9", user_id=user.pk, amount=250)
    before = snapshot()
    with pytest.raises(IdempotencyConflict):
        pot_entry_pay(table_ref="9", user_id=user.pk, amount=500)
    assert snapshot() == before


def test_closed_pots_refuse(player):
    users = seat_four(player)
    pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    late = player(250)
    before = snapshot()
    with pytest.raises(PotClosed):
        pot_refund_all(table_ref="42")
    with pytest.raises(PotClosed):
        pot_entry_pay(table_ref="42", user_id=late.pk, amount=250)
    assert snapshot() == before

    others = seat_four(player, table="43")
    pot_refund_all(table_ref="43")
    with pytest.raises(PotClosed):
        pot_settle(table_ref="43", winner_user_ids=[others[0].pk])


@pytest.mark.parametrize("amount", [0, -250, 300, 250.0, "250", None, True])
def test_bad_entry_amounts_write_nothing(player, amount):
    user = player(2000)
    before = snapshot()
    with pytest.raises(InvalidAmount):
        pot_entry_pay(table_ref="5", user_id=user.pk, amount=amount)
    assert snapshot() == before


def test_entries_of_one_pot_are_equal(player):
    a, b = player(1000), player(1000)
    pot_entry_pay(table_ref="5", user_id=a.pk, amount=250)
    with pytest.raises(InvalidAmount):
        pot_entry_pay(table_ref="5", user_id=b.pk, amount=500)
    assert wallet_balance(user_id=b.pk) == 1000


def test_insufficient_funds_write_nothing(player):
    user = player(249)
    before = snapshot()
    with pytest.raises(InsufficientFunds):
        pot_entry_pay(table_ref="5", user_id=user.pk, amount=250)
    assert snapshot() == before
    assert wallet_balance(user_id=user.pk) == 249
    assert pot_balance(table_ref="5") == 0


def test_unknown_users_write_nothing(player):
    users = seat_four(player)
    before = snapshot()
    with pytest.raises(UnknownUser):
        pot_entry_pay(table_ref="42", user_id=999_999, amount=250)
    with pytest.raises(UnknownUser):
        pot_settle(table_ref="42", winner_user_ids=[users[0].pk, -1])
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="42", winner_user_ids=[999_999])
    assert snapshot() == before


def test_settle_refuses_bad_winners(player):
    users = seat_four(player)
    stranger = player(0)
    before = snapshot()
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="42", winner_user_ids=[])
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="42", winner_user_ids=[users[0].pk, users[0].pk])
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="42", winner_user_ids=[stranger.pk])
    with pytest.raises(PotNotFound):
        pot_settle(table_ref="404", winner_user_ids=[users[0].pk])
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="", winner_user_ids=[users[0].pk])
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="a:b", winner_user_ids=[users[0].pk])
    assert snapshot() == before
    assert Account.objects.get(key="pot:42").state == "open"
