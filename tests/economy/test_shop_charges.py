"""Every way to buy in the shop charges exactly once or is refused in words.

The shop has one purchase path, ``POST /shop/buy/`` (the gold booster and the VIP
pass, each its own form on ``/shop/`` with a CSRF token and a per-view nonce). A
script that posts to it the way a browser does is charged once per form; a post
the browser would not send (no CSRF token, no nonce, a form sent again) is refused
or answered with the purchase already made, and never charged again. Buying the
same kind again with a fresh form is a new purchase that extends the running boost
(docs/economy.md, "Boosters and VIP").
"""

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

ITEMS = {"gold": 500, "vip": 3000}


def browser(user) -> Client:
    """A signed-in client that checks CSRF as the site does for a browser."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def shop_form(client: Client, item: str) -> dict[str, str]:
    """The fields of ``item``'s form on a fresh view of the shop, as a browser
    would send them."""
    page = client.get(reverse("shop")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    nonce = re.search(rf'name="nonce" value="([^"]+-{item})"', page)
    assert token and nonce, "the shop shows a form for the item"
    return {
        "csrfmiddlewaretoken": token.group(1),
        "item": item,
        "nonce": nonce.group(1),
    }


def purchases(user) -> int:
    return Transaction.objects.filter(
        kind=Transaction.Kind.PURCHASE, entries__account__user_id=user.pk
    ).count()


@pytest.mark.django_db
@pytest.mark.parametrize("item", ["gold", "vip"])
def test_the_browser_form_charges_the_price_once(player, item):
    user = player(5000)
    client = browser(user)
    response = client.post(reverse("shop_buy"), shop_form(client, item), follow=True)
    assert response.status_code == 200
    assert "Bought: " in response.content.decode()
    assert wallet_balance(user_id=user.pk) == 5000 - ITEMS[item]
    assert Boost.objects.filter(user=user, kind=item).count() == 1
    assert purchases(user) == 1
    assert_sound()


@pytest.mark.django_db
def test_three_posts_of_one_form_charge_once_and_say_so(player):
    """A script that reads the shop once and posts its form three times: one
    purchase, and every answer names the same one (no second charge)."""
    user = player(2000)
    client = browser(user)
    form = shop_form(client, "gold")
    answers = [
        client.post(reverse("shop_buy"), form, follow=True).content.decode()
        for _ in range(3)
    ]
    assert wallet_balance(user_id=user.pk) == 1500
    assert purchases(user) == 1 and Boost.objects.filter(user=user).count() == 1
    assert all("Bought: gold booster" in a for a in answers)
    assert_sound()


@pytest.mark.django_db
def test_three_fresh_forms_buy_three_times_and_extend_the_booster(player):
    """Three purchases, each from a fresh view of the shop: 1,500 coins, and the
    booster runs three days back to back (the same kind extends, never stacks)."""
    user = player(2000)
    client = browser(user)
    for _ in range(3):
        client.post(reverse("shop_buy"), shop_form(client, "gold"))
    assert wallet_balance(user_id=user.pk) == 500
    boosts = list(Boost.objects.filter(user=user).order_by("starts_at"))
    assert len(boosts) == 3
    for earlier, later in zip(boosts, boosts[1:], strict=False):
        assert later.starts_at == earlier.ends_at
    assert_sound()


@pytest.mark.django_db
def test_a_post_without_the_csrf_token_is_refused_in_words(player):
    """What a script that posts ``item`` and ``nonce`` without the form's token
    gets: the site's 403 page in words; nothing is charged."""
    user = player(2000)
    client = browser(user)
    form = shop_form(client, "gold")
    del form["csrfmiddlewaretoken"]
    response = client.post(reverse("shop_buy"), form)
    assert response.status_code == 403
    assert "That form had expired." in response.content.decode()
    assert wallet_balance(user_id=user.pk) == 2000 and purchases(user) == 0


@pytest.mark.django_db
@pytest.mark.parametrize("nonce", [None, "", "x" * 65])
def test_a_post_without_the_forms_nonce_is_refused_in_words(player, nonce):
    """A script that posts only the item (or a nonce no shop page gave): refused,
    and the shop says what to do; nothing is charged."""
    user = player(2000)
    client = browser(user)
    form = shop_form(client, "gold")
    if nonce is None:
        del form["nonce"]
    else:
        form["nonce"] = nonce
    page = client.post(reverse("shop_buy"), form, follow=True).content.decode()
    assert "The purchase form had expired; reload the shop and try again." in page
    assert "Bought" not in page
    assert wallet_balance(user_id=user.pk) == 2000 and purchases(user) == 0
    assert_sound()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("item", "coins", "missing"), [("gold", 499, 1), ("vip", 0, 3000)]
)
def test_short_of_coins_is_refused_in_words(player, item, coins, missing):
    user = player(coins)
    client = browser(user)
    form = {**shop_form(client, item)}
    page = client.post(reverse("shop_buy"), form, follow=True).content.decode()
    noun = "coin" if missing == 1 else "coins"
    assert f"You need {missing} more {noun} for the " in page
    assert wallet_balance(user_id=user.pk) == coins and purchases(user) == 0
    assert not Boost.objects.exists()
    assert_sound()


def race(user, forms: list[dict[str, str]]) -> list[int]:
    """POST each form from its own signed-in browser tab, all at once."""
    tabs = []
    for _ in forms:
        client = Client()
        client.force_login(user)
        tabs.append(client)
    barrier = threading.Barrier(len(forms))
    statuses = [0] * len(forms)

    def submit(i: int) -> None:
        try:
            barrier.wait()
            statuses[i] = tabs[i].post(reverse("shop_buy"), forms[i]).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(forms))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def fresh_form(user, item: str) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return shop_form(client, item)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_tabs_buying_at_once_with_coins_for_one_charge_once(player):
    """Two shop tabs, each its own form, submitted at the same moment with coins
    for one booster: one is bought, the other refused; the wallet never goes
    below zero."""
    user = player(600)
    statuses = race(user, [fresh_form(user, "gold"), fresh_form(user, "gold")])
    assert statuses == [302, 302]
    assert wallet_balance(user_id=user.pk) == 100
    assert purchases(user) == 1 and Boost.objects.filter(user=user).count() == 1
    assert_sound()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_tabs_buying_at_once_with_coins_for_all_charge_each_once_back_to_back(
    player,
):
    """Four tabs (two forms, each sent twice) at once with coins for both: two
    purchases, charged once each, and the two boosters run one after the other."""
    user = player(1000)
    one, two = fresh_form(user, "gold"), fresh_form(user, "gold")
    statuses = race(user, [one, two, one, two])
    assert set(statuses) == {302}
    assert wallet_balance(user_id=user.pk) == 0
    assert purchases(user) == 2
    first, second = Boost.objects.filter(user=user).order_by("starts_at")
    assert second.starts_at == first.ends_at
    assert_sound()
