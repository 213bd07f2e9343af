"""Sign-up grant, daily bonus, corrections, the audit and its command and task."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction

from economy.audit import ledger_audit
from economy.errors import (
    AlreadyClaimed,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    UnknownAccount,
    UnknownUser,
)
from economy.ledger import fingerprint_of, ledger_post, system_account
from economy.models import Account, Entry, Transaction
from economy.selectors import account_balance, wallet_balance
from economy.services import (
    daily_bonus_claim,
    ledger_correct,
    pot_entry_pay,
    pot_settle,
    wallet_grant_signup,
)
from ops.tasks import audit as audit_task
from tests.economy.conftest import assert_sound, snapshot

pytestmark = pytest.mark.django_db


def test_users_made_without_the_signal_have_an_empty_wallet_lazily(make_user):
    user = make_user()
    assert wallet_balance(user_id=user.pk) == 0
    daily_bonus_claim(user_id=user.pk)
    assert wallet_balance(user_id=user.pk) == 200


def test_signup_grant_is_paid_once(make_user, settings):
    settings.ECONOMY_SIGNUP_GRANT = 2000
    user = make_user()
    first = wallet_grant_signup(user_id=user.pk)
    assert wallet_grant_signup(user_id=user.pk).pk == first.pk
    assert wallet_balance(user_id=user.pk) == 2000
    mint = Account.objects.get(key="mint")
    assert mint.balance is None and account_balance(account_id=mint.pk) == -2000


def test_signing_up_through_allauth_grants_coins(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-Long-pass-42",
            "password2": "a-Long-pass-42",
        },
    )
    assert response.status_code == 302
    user = Account.objects.get(user__username="newcomer").user
    assert wallet_balance(user_id=user.pk) == 2000
    assert Transaction.objects.filter(key=f"signup:{user.pk}").exists()


def test_daily_bonus_once_per_utc_day(make_user):
    user = make_user()
    morning = datetime(2026, 3, 1, 0, 0, 1, tzinfo=UTC)
    daily_bonus_claim(user_id=user.pk, now=morning)
    before = snapshot()
    with pytest.raises(AlreadyClaimed):
        daily_bonus_claim(user_id=user.pk, now=morning + timedelta(hours=23))
    assert snapshot() == before
    daily_bonus_claim(user_id=user.pk, now=morning + timedelta(days=1))
    assert wallet_balance(user_id=user.pk) == 400


def test_daily_bonus_for_an_unknown_user_writes_nothing():
    before = snapshot()
    with pytest.raises(UnknownUser):
        daily_bonus_claim(user_id=999_999)
    assert snapshot() == before


def test_a_correction_is_a_new_transaction_with_reason(player, admin_user):
    user = player(100)
    wallet = Account.objects.get(user=user)
    posted = ledger_correct(
        account_id=wallet.pk,
        amount=-40,
        reason="duplicate grant",
        operator_id=admin_user.pk,
        request_key="r1",
    )
    assert (posted.kind, posted.reason, posted.operator_id) == (
        "correction",
        "duplicate grant",
        admin_user.pk,
    )
    assert wallet_balance(user_id=user.pk) == 60
    before = snapshot()
    with pytest.raises(InsufficientFunds):
        ledger_correct(
            account_id=wallet.pk,
            amount=-61,
            reason="x",
            operator_id=admin_user.pk,
            request_key="r2",
        )
    for bad in (
        {"amount": 0, "reason": "x"},
        {"amount": 1.5, "reason": "x"},
        {"amount": 5, "reason": "  "},
    ):
        with pytest.raises((InvalidAmount, InvalidInput)):
            ledger_correct(
                account_id=wallet.pk,
                operator_id=admin_user.pk,
                request_key="r3",
                **bad,
            )
    with pytest.raises(UnknownAccount):
        ledger_correct(
            account_id=999_999,
            amount=5,
            reason="x",
            operator_id=admin_user.pk,
            request_key="r4",
        )
    assert snapshot() == before
    assert_sound()


def test_ledger_post_refuses_unbalanced_or_empty_legs(player):
    user = player(100)
    wallet = Account.objects.get(user=user)
    mint = system_account(kind="mint")
    before = snapshot()
    for legs in ([(mint, -5), (wallet, 4)], [(wallet, 5)], [(mint, 0), (wallet, 0)]):
        with pytest.raises((InvalidInput, InvalidAmount)), transaction.atomic():
            ledger_post(key="k", kind="correction", legs=legs, fingerprint="f")
    assert snapshot() == before


def test_posted_ledger_rows_cannot_be_edited_from_python(player):
    player(100)
    posted = Transaction.objects.get()
    with pytest.raises(Exception, match="cannot be changed"):
        posted.save()
    with pytest.raises(Exception, match="cannot be deleted"):
        posted.entries.first().delete()


def test_balance_check_constraint_is_the_last_line_of_defence(player):
    user = player(100)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(user=user).update(balance=-1)


def test_audit_is_clean_after_a_busy_day(player):
    users = [player(1000) for _ in range(4)]
    for user in users:
        pot_entry_pay(table_ref="1", user_id=user.pk, amount=500)
    pot_settle(table_ref="1", winner_user_ids=[users[0].pk])
    assert ledger_audit() == []
    call_command("ledger_audit")
    assert audit_task() == 0


def test_audit_reports_a_tampered_balance_and_a_full_closed_escrow(player, caplog):
    users = [player(250) for _ in range(2)]
    for user in users:
        pot_entry_pay(table_ref="1", user_id=user.pk, amount=250)
    # Tamper behind the services' back: a wallet's balance, a pot marked settled.
    Account.objects.filter(user=users[0]).update(balance=7)
    Account.objects.filter(key="pot:1").update(state="settled")
    found = {(b.check, b.subject) for b in ledger_audit()}
    assert found == {("balance", f"wallet:{users[0].pk}"), ("escrow", "pot:1")}
    with pytest.raises(CommandError):
        call_command("ledger_audit")
    with mock.patch("django.core.mail.mail_admins") as mailed:
        assert audit_task() == 2  # the hourly audit's ledger part
    assert mailed.called
    assert "AUDIT BREACH balance" in caplog.text


def guards_off() -> None:
    """Switch PostgreSQL's ledger triggers off for this test's transaction only.

    Tampering that the triggers would refuse is how the audit is proven to see it.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")


def test_audit_reports_an_unbalanced_transaction(player):
    guards_off()
    user = player(100)
    Entry.objects.filter(account__user=user).update(amount=101)
    checks = {b.check for b in ledger_audit()}
    assert checks == {"unbalanced", "balance"}


def test_audit_reports_a_negative_account_and_a_transaction_without_entries(
    player,
):
    guards_off()
    user = player(100)
    wallet = Account.objects.get(user=user)
    mint = system_account(kind="mint")
    tx = Transaction.objects.create(key="bad", kind="correction", fingerprint="x")
    Entry.objects.bulk_create(
        [
            Entry(transaction=tx, account=wallet, amount=-150),
            Entry(transaction=tx, account=mint, amount=150),
        ]
    )
    Transaction.objects.create(key="empty", kind="correction", fingerprint="x")
    checks = sorted(b.check for b in ledger_audit())
    assert checks == ["balance", "negative", "unbalanced"]
    assert fingerprint_of({"a": 1}) == fingerprint_of({"a": 1})
