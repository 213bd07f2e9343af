"""PostgreSQL only: the database's own guards, and races with real threads."""

import contextlib
import threading
from collections import Counter

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import DatabaseError

from economy.errors import AlreadyClaimed, EconomyError, InsufficientFunds, PotClosed
from economy.ledger import system_account
from economy.models import Account, Entry, Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from economy.services import (
    Placing,
    daily_bonus_claim,
    pot_entry_pay,
    pot_refund_all,
    pot_settle,
    table_rewards_pay,
)
from tests.economy.conftest import assert_sound

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_the_database_refuses_an_unbalanced_transaction(player):
    user = player(100)
    wallet = Account.objects.get(user=user)
    mint = system_account(kind="mint")
    with pytest.raises(IntegrityError, match="unbalanced"), transaction.atomic():
        tx = Transaction.objects.create(key="bad", kind="correction", fingerprint="x")
        Entry.objects.create(transaction=tx, account=wallet, amount=5)
        Entry.objects.create(transaction=tx, account=mint, amount=-4)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with pytest.raises(IntegrityError, match="unbalanced"), transaction.atomic():
        Transaction.objects.create(key="lonely", kind="correction", fingerprint="x")
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.mark.django_db
def test_the_database_refuses_edits_of_the_ledger(player):
    player(100)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        Entry.objects.update(amount=1)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        Transaction.objects.update(memo="x")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        Entry.objects.all()._raw_delete(Entry.objects.db)


def run_threads(target, args_list):
    """Start every call at once (a barrier); return results or exceptions."""
    barrier = threading.Barrier(len(args_list))
    results: list[object] = [None] * len(args_list)

    def run(i, args):
        try:
            barrier.wait()
            results[i] = target(*args)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(i, a)) for i, a in enumerate(args_list)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def kinds(results):
    return Counter(type(r).__name__ for r in results)


@pytest.mark.django_db(transaction=True)
def test_twenty_players_race_for_two_tables_with_coins_for_one(player):
    users = [player(250) for _ in range(20)]
    calls = [(t, u.pk) for u in users for t in ("A", "B")]

    def pay(table, user_id):
        return pot_entry_pay(table_ref=table, user_id=user_id, amount=250)

    results = run_threads(pay, calls)
    assert kinds(results) == {"Transaction": 20, "InsufficientFunds": 20}
    assert all(wallet_balance(user_id=u.pk) == 0 for u in users)
    assert pot_balance(table_ref="A") + pot_balance(table_ref="B") == 20 * 250
    assert Entry.objects.filter(transaction__kind="entry").count() == 40
    assert_sound()


@pytest.mark.django_db(transaction=True)
def test_first_entries_of_a_new_pot_race_to_one_pot(player):
    users = [player(500) for _ in range(8)]
    calls = [(u.pk,) for u in users] + [(u.pk,) for u in users[:4]]  # 4 repeats

    def pay(user_id):
        return pot_entry_pay(table_ref="NEW", user_id=user_id, amount=250)

    results = run_threads(pay, calls)
    assert kinds(results) == {"Transaction": 12}
    assert len({r.pk for r in results}) == 8
    assert Account.objects.filter(key="pot:NEW").count() == 1
    assert pot_balance(table_ref="NEW") == 8 * 250
    assert all(wallet_balance(user_id=u.pk) == 250 for u in users)
    assert_sound()


@pytest.mark.django_db(transaction=True)
def test_simultaneous_daily_bonus_claims_pay_once(player):
    user = player()
    results = run_threads(lambda: daily_bonus_claim(user_id=user.pk), [()] * 12)
    assert kinds(results) == {"Transaction": 1, "AlreadyClaimed": 11}
    assert all(isinstance(r, (Transaction, AlreadyClaimed)) for r in results)
    assert wallet_balance(user_id=user.pk) == 200
    assert_sound()


@pytest.mark.django_db(transaction=True)
def test_first_wallets_created_concurrently_are_one(player):
    user = player()  # no coins, so no wallet yet
    placings = [Placing(user.pk, 1, 0), Placing(None, 2, 1)]
    results = run_threads(
        lambda n: table_rewards_pay(
            table_ref=f"T{n}", mode="online", placings=placings
        ),
        [(n,) for n in range(8)],
    )
    assert kinds(results) == {"list": 8}
    assert Account.objects.filter(user=user).count() == 1
    assert wallet_balance(user_id=user.pk) == 8 * 100
    assert_sound()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(5))
def test_settle_racing_refund_exactly_one_wins(player, round_):
    users = [player(500) for _ in range(4)]
    table = f"R{round_}"
    for user in users:
        pot_entry_pay(table_ref=table, user_id=user.pk, amount=500)

    def settle():
        return ("settled", pot_settle(table_ref=table, winner_user_ids=[users[1].pk]))

    def refund():
        return ("refunded", pot_refund_all(table_ref=table))

    results = run_threads(lambda f: f(), [(settle,), (refund,)] * 3)
    winners = {r[0] for r in results if isinstance(r, tuple)}
    losers = [r for r in results if not isinstance(r, tuple)]
    assert len(winners) == 1
    assert all(isinstance(r, PotClosed) for r in losers)
    state = pot_state(table_ref=table)
    assert winners == {state}
    balances = [wallet_balance(user_id=u.pk) for u in users]
    if state == "settled":
        assert balances == [0, 2000, 0, 0]
    else:
        assert balances == [500] * 4
    assert pot_balance(table_ref=table) == 0
    assert_sound()


@pytest.mark.django_db(transaction=True)
def test_settlements_and_entries_in_parallel_keep_the_ledger_sound(player):
    users = [player(1000) for _ in range(16)]
    tables = [f"P{n}" for n in range(4)]
    for n, table in enumerate(tables):
        for user in users[4 * n : 4 * n + 4]:
            pot_entry_pay(table_ref=table, user_id=user.pk, amount=250)

    def work(n):
        # Settle own table while every player pays into a fresh one.
        mine = users[4 * n : 4 * n + 4]
        pot_settle(table_ref=tables[n], winner_user_ids=[mine[0].pk, mine[2].pk])
        for user in reversed(users):
            with contextlib.suppress(InsufficientFunds, EconomyError):
                pot_entry_pay(table_ref=f"N{n}", user_id=user.pk, amount=100)

    results = run_threads(work, [(n,) for n in range(4)])
    assert not any(isinstance(r, (Exception, DatabaseError)) for r in results)
    assert_sound()
    total = sum(wallet_balance(user_id=u.pk) for u in users)
    in_pots = sum(pot_balance(table_ref=f"N{n}") for n in range(4))
    assert total + in_pots == 16 * 1000
