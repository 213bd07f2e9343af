"""The money forms attacked as a cheat would: the same form submitted from several
tabs at once (real threads on PostgreSQL, through the HTTP views), forged values.
Each pays or charges once, and the ledger stays sound."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from economy.models import Boost, Transaction
from economy.selectors import wallet_balance
from tests.economy.conftest import assert_sound

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race(user, path: str, data: dict[str, str], tabs: int = 8) -> list[int]:
    """POST ``data`` to ``path`` from ``tabs`` signed-in clients at once."""
    clients = []
    for _ in range(tabs):
        client = Client()
        client.force_login(user)
        clients.append(client)
    barrier = threading.Barrier(tabs)
    statuses: list[int] = [0] * tabs

    def submit(i: int) -> None:
        try:
            barrier.wait()
            statuses[i] = clients[i].post(path, data).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(tabs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_the_daily_bonus_claimed_from_eight_tabs_at_once_pays_once(player):
    user = player()
    statuses = race(user, reverse("wallet_daily_bonus"), {})
    assert set(statuses) == {302}, "every tab gets an answer, none an error"
    assert wallet_balance(user_id=user.pk) == 200
    assert Transaction.objects.filter(kind=Transaction.Kind.DAILY).count() == 1
    assert_sound()


def test_a_purchase_submitted_from_eight_tabs_at_once_charges_once(player):
    user = player(600)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("shop")).content.decode()
    nonce = re.search(r'name="nonce" value="([^"]+)-gold"', page).group(1)
    statuses = race(
        user, reverse("shop_buy"), {"item": "gold", "nonce": f"{nonce}-gold"}
    )
    assert set(statuses) == {302}
    assert wallet_balance(user_id=user.pk) == 100
    assert Boost.objects.filter(user=user).count() == 1
    assert_sound()


@pytest.mark.parametrize(
    "data",
    [
        {"item": "diamond", "nonce": "n1"},
        {"item": "gold", "nonce": ""},
        {"item": "gold", "nonce": "x" * 5000},
    ],
)
def test_forged_purchases_change_nothing(player, data):
    user = player(5000)
    client = Client()
    client.force_login(user)
    page = client.post(reverse("shop_buy"), data, follow=True)
    assert page.status_code in (200, 400)
    text = page.content.decode()
    assert "Traceback" not in text and "wallet:" not in text
    assert wallet_balance(user_id=user.pk) == 5000
    assert not Boost.objects.exists()
    assert_sound()


def test_a_forged_price_is_ignored(player):
    user = player(600)
    client = Client()
    client.force_login(user)
    client.post(reverse("shop_buy"), {"item": "gold", "nonce": "n3", "price": "1"})
    assert wallet_balance(user_id=user.pk) == 100  # the gold booster's real 500
    assert_sound()
