"""One entry per sitting (RULES.md §5): standing up refunds the entry, sitting down
again pays it again, and an open pot holds exactly its unrefunded entries."""

import pytest

from economy.audit import ledger_audit
from economy.errors import IdempotencyConflict, InsufficientFunds, InvalidInput
from economy.ledger import escrow_wallets_lock, ledger_post
from economy.models import Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from economy.services import (
    pot_entry_pay,
    pot_entry_refund,
    pot_refund_all,
    pot_settle,
)
from tests.economy.conftest import assert_sound, snapshot
from tests.economy.test_round_trips import posting, statements

pytestmark = pytest.mark.django_db


def keys(table_ref: str = "42") -> list[str]:
    return list(
        Transaction.objects.filter(table_ref=table_ref)
        .order_by("pk")
        .values_list("key", flat=True)
    )


def test_sitting_down_again_after_a_refund_pays_again(player):
    ana = player(300)
    first = pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    pot_entry_refund(table_ref="42", user_id=ana.pk)
    second = pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)

    assert second.pk != first.pk
    assert wallet_balance(user_id=ana.pk) == 200
    assert pot_balance(table_ref="42") == 100
    # The first sitting keeps the short keys; the n-th carries its number.
    assert keys() == [
        f"entry:42:{ana.pk}",
        f"refund:42:{ana.pk}",
        f"entry:42:{ana.pk}:2",
    ]
    assert_sound()


def test_a_repeat_of_the_current_sitting_returns_its_payment(player):
    ana = player(300)
    pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    pot_entry_refund(table_ref="42", user_id=ana.pk)
    second = pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    before = snapshot()

    assert pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100).pk == second.pk
    assert snapshot() == before
    with pytest.raises(IdempotencyConflict):
        pot_entry_pay(table_ref="42", user_id=ana.pk, amount=250)
    assert snapshot() == before


def test_three_sittings_refund_in_turn_and_refunding_again_changes_nothing(player):
    ana = player(100)
    for sitting in (1, 2, 3):
        pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
        assert wallet_balance(user_id=ana.pk) == 0
        refund = pot_entry_refund(table_ref="42", user_id=ana.pk)
        tail = "" if sitting == 1 else f":{sitting}"
        assert refund.key == f"refund:42:{ana.pk}{tail}"
        assert wallet_balance(user_id=ana.pk) == 100
    before = snapshot()
    assert pot_entry_refund(table_ref="42", user_id=ana.pk).pk == refund.pk
    assert snapshot() == before
    assert pot_balance(table_ref="42") == 0
    assert_sound()


def test_a_new_sitting_without_the_coins_is_refused_and_writes_nothing(player):
    ana = player(100)
    pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    pot_entry_refund(table_ref="42", user_id=ana.pk)
    pot_entry_pay(table_ref="43", user_id=ana.pk, amount=100)  # spent elsewhere
    before = snapshot()
    with pytest.raises(InsufficientFunds):
        pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    assert snapshot() == before


def test_refund_all_gives_back_only_the_entries_still_held(player):
    ana, ben = player(200), player(100)
    pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    pot_entry_refund(table_ref="42", user_id=ana.pk)
    pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    pot_entry_pay(table_ref="42", user_id=ben.pk, amount=100)
    assert pot_balance(table_ref="42") == 200

    refunds = pot_refund_all(table_ref="42")

    assert sorted(t.key for t in refunds) == sorted(
        [f"refund:42:{ana.pk}", f"refund:42:{ana.pk}:2", f"refund:42:{ben.pk}"]
    )
    assert wallet_balance(user_id=ana.pk) == 200
    assert wallet_balance(user_id=ben.pk) == 100
    assert pot_state(table_ref="42") == "refunded"
    assert [t.pk for t in pot_refund_all(table_ref="42")] == sorted(
        t.pk for t in refunds
    )
    assert_sound()


def test_a_winner_must_hold_an_unrefunded_entry(player):
    ana, ben, cyd = player(200), player(100), player(100)
    for user in (ana, ben, cyd):
        pot_entry_pay(table_ref="42", user_id=user.pk, amount=100)
    pot_entry_refund(table_ref="42", user_id=cyd.pk)
    pot_entry_refund(table_ref="42", user_id=ana.pk)
    before = snapshot()
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="42", winner_user_ids=[cyd.pk])
    with pytest.raises(InvalidInput):
        pot_settle(table_ref="42", winner_user_ids=[ben.pk, ana.pk])
    assert snapshot() == before

    pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)  # sits down again
    payout = pot_settle(table_ref="42", winner_user_ids=[ana.pk])
    assert payout.key == "payout:42"
    assert wallet_balance(user_id=ana.pk) == 300
    assert pot_balance(table_ref="42") == 0
    assert_sound()


def test_settling_a_pot_with_many_sittings_is_still_one_look_up(player):
    users = [player(200) for _ in range(2)]
    for user in users:
        pot_entry_pay(table_ref="42", user_id=user.pk, amount=100)
        pot_entry_refund(table_ref="42", user_id=user.pk)
        pot_entry_pay(table_ref="42", user_id=user.pk, amount=100)
    settle = statements(
        lambda: pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    )
    assert len(settle) == 2 + posting(), settle
    assert_sound()


def test_the_audit_finds_an_open_pot_holding_other_than_its_entries(player):
    ana, ben = player(100), player(100)
    pot_entry_pay(table_ref="42", user_id=ana.pk, amount=100)
    pot_entry_pay(table_ref="42", user_id=ben.pk, amount=100)
    assert ledger_audit() == []
    # Coins leave the pot under a key that gives back no sitting: the ledger
    # balances, but the pot no longer holds its entries.
    escrow, wallets = escrow_wallets_lock(table_ref="42", user_ids=[ana.pk])
    assert escrow is not None
    ledger_post(
        key=f"refund:42:{ana.pk}:7",
        kind=Transaction.Kind.REFUND,
        legs=[(escrow, -100), (wallets[ana.pk], 100)],
        fingerprint="x",
        table_ref="42",
    )
    found = [b for b in ledger_audit() if b.check == "pot"]
    assert [(b.subject, b.detail) for b in found] == [
        ("pot:42", "open pot holds 100 but unrefunded entries 200")
    ]
