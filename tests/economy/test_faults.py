"""Faults: an exception in the middle of a settlement leaves nothing behind."""

import pytest
from django.db import connection

from economy.models import Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from economy.services import pot_entry_pay, pot_settle
from tests.economy.conftest import assert_sound, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


class Injected(RuntimeError):
    pass


# The statements of the settlement's posting (``ledger_post``): one on PostgreSQL
# (data-modifying CTEs), three elsewhere. Each fails before it runs, or right after
# (its rows written, the transaction not committed).
POSTING = (
    ["WITH tx AS (INSERT INTO economy_transaction"]
    if connection.vendor == "postgresql"
    else [
        "INSERT INTO economy_transaction",
        "INSERT INTO economy_entry",
        "UPDATE economy_account",
    ]
)
FAULTS = [
    (statement, when)
    for statement in POSTING
    for when in ("before", "after")
    if (statement, when) != (POSTING[0], "before")  # nothing written yet
]


@pytest.mark.parametrize(("statement", "when"), FAULTS)
def test_exception_mid_settlement_leaves_no_partial_transaction(
    player, statement, when
):
    users = [player(250) for _ in range(4)]
    for user in users:
        pot_entry_pay(table_ref="42", user_id=user.pk, amount=250)
    before = snapshot()
    seen = []

    def boom(execute, sql, params, many, context):
        failing = sql.replace('"', "").startswith(statement)
        if failing and when == "before":
            raise Injected(statement)
        seen.append(sql)
        result = execute(sql, params, many, context)
        if failing:
            raise Injected(statement)
        return result

    with pytest.raises(Injected), connection.execute_wrapper(boom):
        pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    assert any("economy_transaction" in sql and "INSERT" in sql for sql in seen)

    assert snapshot() == before
    assert not Transaction.objects.filter(key="payout:42").exists()
    assert (pot_balance(table_ref="42"), pot_state(table_ref="42")) == (1000, "open")
    assert_sound()
    pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    assert wallet_balance(user_id=users[0].pk) == 1000
    assert_sound()
