"""Round trips of the hot paths, and the repeat paths their shortcuts must keep.

Not a timing test: it counts the SQL statements an entry payment and a settlement
send (what ``bench/ledger.py`` measures), so a refactor that adds a round trip
to every table is noticed. Savepoints, BEGIN and COMMIT are not counted: around
the test's own transaction they differ from production.
"""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from economy.errors import IdempotencyConflict, InvalidInput, PotClosed
from economy.ledger import escrow_wallets_lock, ledger_post, system_account
from economy.models import Account, Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from economy.services import pot_entry_pay, pot_open, pot_refund_all, pot_settle
from tests.economy.conftest import assert_sound, snapshot

pytestmark = pytest.mark.django_db

FRAMING = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")


def posting() -> int:
    """Statements of one ``ledger_post``: one on PostgreSQL (data-modifying CTEs),
    the transaction, its entries and the balances elsewhere."""
    return 1 if connection.vendor == "postgresql" else 3


def statements(call) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        call()
    return [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(FRAMING)
    ]


def test_entry_payment_and_settlement_statements(player):
    users = [player(250) for _ in range(4)]
    first = statements(
        lambda: pot_entry_pay(table_ref="42", user_id=users[0].pk, amount=250)
    )
    # Lock (pot missing), wallet check, create the pot, lock, the writes.
    assert len(first) == 4 + posting(), first
    for user in users[1:]:
        later = statements(
            lambda u=user: pot_entry_pay(table_ref="42", user_id=u.pk, amount=250)
        )
        # Lock escrow and wallet; the transaction, its entries, balances.
        assert len(later) == 1 + posting(), later
    settle = statements(
        lambda: pot_settle(table_ref="42", winner_user_ids=[users[0].pk, users[2].pk])
    )
    # Lock, look up payout and entries, the writes (state with the balances).
    assert len(settle) == 2 + posting(), settle
    assert [wallet_balance(user_id=u.pk) for u in users] == [500, 0, 500, 0]
    assert_sound()


def test_repeated_entry_returns_the_first_even_when_it_would_now_be_refused(player):
    users = [player(250) for _ in range(2)]
    first = pot_entry_pay(table_ref="9", user_id=users[0].pk, amount=250)
    pot_entry_pay(table_ref="9", user_id=users[1].pk, amount=250)
    before = snapshot()
    # The wallet is empty now: the repeat is still the first payment, not a refusal.
    again = pot_entry_pay(table_ref="9", user_id=users[0].pk, amount=250)
    assert (again.pk, again.key, again.fingerprint) == (
        first.pk,
        first.key,
        first.fingerprint,
    )
    with pytest.raises(IdempotencyConflict):
        pot_entry_pay(table_ref="9", user_id=users[0].pk, amount=500)
    pot_settle(table_ref="9", winner_user_ids=[users[1].pk])
    # And after the pot closed.
    assert pot_entry_pay(table_ref="9", user_id=users[0].pk, amount=250).pk == first.pk
    new = Transaction.objects.exclude(pk__in=[pk for pk, _ in before[0]])
    assert list(new.values_list("key", flat=True)) == ["payout:9"]
    assert_sound()


def test_returned_transactions_are_the_stored_rows(player):
    users = [player(250) for _ in range(2)]
    paid = pot_entry_pay(table_ref="9", user_id=users[0].pk, amount=250)
    pot_entry_pay(table_ref="9", user_id=users[1].pk, amount=250)
    payout = pot_settle(table_ref="9", winner_user_ids=[users[1].pk])
    for posted in (paid, payout):
        stored = Transaction.objects.get(pk=posted.pk)
        fields = ("key", "kind", "table_ref", "fingerprint", "memo", "created_at")
        assert [getattr(posted, f) for f in fields] == [
            getattr(stored, f) for f in fields
        ]
        assert sum(e.amount for e in posted.entries.all()) == 0
    assert Account.objects.get(key="pot:9").entry_fee == 250
    assert pot_balance(table_ref="9") == 0


def test_a_taken_key_is_a_clear_error_and_the_transaction_goes_on(player):
    user = player(100)
    wallet = Account.objects.get(user=user)
    mint = system_account(kind="mint")
    before = snapshot()
    with transaction.atomic():
        with pytest.raises(IdempotencyConflict):
            ledger_post(
                key=Transaction.objects.get().key,
                kind="correction",
                legs=[(mint, -5), (wallet, 5)],
                fingerprint="other",
            )
        # No savepoint was needed: the database transaction is still usable.
        assert Transaction.objects.count() == 1
    assert snapshot() == before


def test_escrow_set_is_only_for_an_escrows_state_or_fee(player):
    user = player(100)
    wallet = Account.objects.get(user=user)
    mint = system_account(kind="mint")
    for escrow_set in ({"balance": 0}, {"state": "settled"}):
        with pytest.raises(InvalidInput), transaction.atomic():
            ledger_post(
                key="k",
                kind="correction",
                legs=[(mint, -5), (wallet, 5)],
                fingerprint="f",
                escrow_set=escrow_set,
            )


def test_the_pot_lock_takes_nothing_when_the_pot_does_not_exist(player):
    user = player(100)
    with transaction.atomic():
        assert escrow_wallets_lock(table_ref="none", user_ids=[user.pk]) == (None, {})


def test_refunds_still_close_the_pot(player):
    users = [player(100) for _ in range(3)]
    for user in users:
        pot_entry_pay(table_ref="7", user_id=user.pk, amount=100)
    pot_refund_all(table_ref="7")
    with pytest.raises(PotClosed):
        pot_settle(table_ref="7", winner_user_ids=[users[0].pk])
    assert [wallet_balance(user_id=u.pk) for u in users] == [100] * 3
    assert_sound()


def test_a_pot_opened_ahead_spares_the_first_entry_its_creation(player):
    users = [player(250) for _ in range(2)]
    pot_open(table_ref="5")
    pot_open(table_ref="5")  # opening again changes nothing
    assert pot_state(table_ref="5") == "open" and pot_balance(table_ref="5") == 0
    first = statements(
        lambda: pot_entry_pay(table_ref="5", user_id=users[0].pk, amount=250)
    )
    assert len(first) == 1 + posting(), first
    pot_entry_pay(table_ref="5", user_id=users[1].pk, amount=250)
    assert pot_balance(table_ref="5") == 500
    assert_sound()


def test_an_opened_pot_nobody_paid_into_refunds_to_nothing(player):
    pot_open(table_ref="6")
    assert pot_refund_all(table_ref="6") == []
    assert pot_state(table_ref="6") == "refunded"
    with pytest.raises(PotClosed):
        pot_entry_pay(table_ref="6", user_id=player(100).pk, amount=100)
    assert_sound()
