"""Wallet, shop, profile and admin pages."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from economy.models import Account, Boost, Entry, Transaction
from economy.selectors import (
    daily_bonus_claimed,
    player_progress,
    wallet_balance,
    wallet_summary,
)
from economy.services import (
    Placing,
    daily_bonus_claim,
    pot_entry_pay,
    table_rewards_pay,
)

pytestmark = pytest.mark.django_db


def test_pages_need_a_login(client):
    for name in ("wallet", "shop"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response.url


def test_wallet_shows_balance_and_history_linked_to_tables(client, player, settings):
    settings.ECONOMY_TABLE_URL = "/t/{ref}/"
    user = player(1000)
    pot_entry_pay(table_ref="77", user_id=user.pk, amount=250)
    client.force_login(user)
    page = client.get(reverse("wallet")).content.decode()
    assert 'data-testid="balance">750<' in page
    assert 'href="/t/77/"' in page and "entry fee" in page and "-250" in page
    assert "Wallet" in client.get(reverse("home")).content.decode()


def test_wallet_history_pages_by_fifty(client, player):
    user = player()
    for n in range(51):
        table_rewards_pay(
            table_ref=str(n),
            mode="online",
            placings=[Placing(user.pk, 1, 0), Placing(None, 2, 1)],
        )
    client.force_login(user)
    first = client.get(reverse("wallet")).content.decode()
    second = client.get(reverse("wallet") + "?page=2").content.decode()
    assert len(re.findall(r'href="/tables/\d+/"', first)) == 50
    assert re.findall(r'href="/tables/(\d+)/"', second) == ["0"]


def test_daily_bonus_button_posts_once(client, player):
    user = player()
    client.force_login(user)
    assert client.get(reverse("wallet_daily_bonus")).status_code == 405
    response = client.post(reverse("wallet_daily_bonus"), follow=True)
    assert "+200 coins" in response.content.decode()
    response = client.post(reverse("wallet_daily_bonus"), follow=True)
    assert "already claimed" in response.content.decode()
    assert wallet_balance(user_id=user.pk) == 200


def test_daily_bonus_needs_csrf(player):
    from django.test import Client

    user = player()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(reverse("wallet_daily_bonus")).status_code == 403
    assert wallet_balance(user_id=user.pk) == 0


def test_shop_buys_with_a_nonce_and_reports_errors(client, player):
    user = player(600)
    client.force_login(user)
    page = client.get(reverse("shop")).content.decode()
    nonce = re.search(r'name="nonce" value="([^"]+)-gold"', page).group(1)
    data = {"item": "gold", "nonce": f"{nonce}-gold"}
    response = client.post(reverse("shop_buy"), data, follow=True)
    assert "Bought: gold booster" in response.content.decode()
    client.post(reverse("shop_buy"), data)  # a double submit
    assert wallet_balance(user_id=user.pk) == 100
    assert Boost.objects.filter(user=user).count() == 1
    response = client.post(
        reverse("shop_buy"), {"item": "gold", "nonce": "other"}, follow=True
    )
    page = response.content.decode()
    assert "You need 400 more coins for the gold booster." in page
    assert "wallet:" not in page and "holds 100 coins" not in page


def test_profile_shows_level_xp_and_balance(client, player):
    user = player(300)
    table_rewards_pay(
        table_ref="1",
        mode="online",
        placings=[Placing(user.pk, 1, 0), Placing(None, 2, 1)],
    )
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert "Level" in page and "50 XP" in page and ">400<" in page


def test_admin_ledger_is_read_only_and_corrections_post(admin_client, player):
    user = player(100)
    wallet = Account.objects.get(user=user)
    assert admin_client.get("/admin/economy/transaction/").status_code == 200
    assert admin_client.get("/admin/economy/transaction/add/").status_code == 403
    tx = Transaction.objects.get()
    assert (
        admin_client.post(f"/admin/economy/transaction/{tx.pk}/delete/").status_code
        == 403
    )
    url = reverse("admin:economy_transaction_correct")
    form = admin_client.get(url).content.decode()
    nonce = re.search(r'name="nonce" value="([^"]+)"', form).group(1)
    data = {"account": wallet.pk, "amount": "25", "reason": "goodwill", "nonce": nonce}
    response = admin_client.post(url, data)
    assert response.status_code == 302
    admin_client.post(url, data)  # a double submit posts once
    assert wallet_balance(user_id=user.pk) == 125
    bad = admin_client.post(url, {**data, "amount": "-500", "nonce": "n2"})
    assert "holds 125 coins" in bad.content.decode()
    assert Transaction.objects.filter(kind="correction").count() == 1


def test_wallet_figures_are_one_statement(player):
    user = player(1000)
    pot_entry_pay(table_ref="77", user_id=user.pk, amount=250)
    with CaptureQueriesContext(connection) as sql:
        summary = wallet_summary(user_id=user.pk)
    assert len(sql) == 1
    assert (summary.balance, summary.bonus_claimed, summary.lines) == (
        wallet_balance(user_id=user.pk),
        daily_bonus_claimed(user_id=user.pk),
        Entry.objects.filter(account__user_id=user.pk).count(),
    )
    assert summary.progress == player_progress(user_id=user.pk)
    daily_bonus_claim(user_id=user.pk)
    table_rewards_pay(
        table_ref="78",
        mode="online",
        placings=[Placing(user.pk, 1, 0), Placing(None, 2, 1)],
    )
    summary = wallet_summary(user_id=user.pk)
    assert summary.bonus_claimed and summary.progress.xp > 0
    assert summary.progress == player_progress(user_id=user.pk)
    assert summary.balance == wallet_balance(user_id=user.pk)
    empty = wallet_summary(user_id=player().pk)
    assert (empty.balance, empty.bonus_claimed, empty.lines) == (0, False, 0)


def test_the_wallet_page_statements(client, player):
    """The user, the wallet's figures, the boosts, one page of history and the
    navigation's counts: the history's lines are not counted again."""
    user = player(1000)
    pot_entry_pay(table_ref="77", user_id=user.pk, amount=250)
    client.force_login(user)
    client.get(reverse("wallet"))  # the session into the cache
    with CaptureQueriesContext(connection) as sql:
        page = client.get(reverse("wallet"))
    assert 'data-testid="balance">750<' in page.content.decode()
    assert page.context["history"].paginator.count == 2
    assert len(sql) == 5
