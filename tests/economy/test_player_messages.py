"""What a player reads when the economy refuses: their words, not the ledger's."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from economy.errors import AlreadyClaimed, InsufficientFunds, InvalidAmount, PotClosed
from economy.player_messages import bonus_refusal, shop_refusal
from economy.selectors import wallet_balance
from economy.services import pot_entry_pay, pot_refund_all, shop_buy

pytestmark = pytest.mark.django_db

INTERNALS = re.compile(r"wallet:|purchase:|idempotency|\[|'[a-z_]+'|table_ref|escrow")


def test_short_of_coins_for_the_vip_pass(player):
    user = player(2200)
    with pytest.raises(InsufficientFunds) as caught:
        shop_buy(user_id=user.pk, item="vip", request_key="k1")
    message = shop_refusal(caught.value, item="vip", balance=2200)
    assert message == "You need 800 more coins for the VIP pass."
    assert wallet_balance(user_id=user.pk) == 2200


def test_an_item_the_shop_does_not_sell(client, player):
    user = player(5000)
    client.force_login(user)
    response = client.post(
        reverse("shop_buy"), {"item": "diamond", "nonce": "n1"}, follow=True
    )
    page = response.content.decode()
    assert "The shop does not sell that item." in page
    assert "diamond" not in page and "[&#x27;gold" not in page
    assert wallet_balance(user_id=user.pk) == 5000


def test_the_vip_shortfall_on_the_shop_page(client, player):
    user = player(2200)
    client.force_login(user)
    response = client.post(
        reverse("shop_buy"), {"item": "vip", "nonce": "k1"}, follow=True
    )
    page = response.content.decode()
    assert "You need 800 more coins for the VIP pass." in page
    assert "wallet:" not in page and "purchase:" not in page


def test_a_second_daily_bonus():
    message = bonus_refusal(AlreadyClaimed("x"))
    assert (
        message == "You already claimed today's bonus. The next one opens at 00:00 UTC."
    )


def test_pot_refusals_name_no_table_ref_or_repr(player):
    user = player(1000)
    with pytest.raises(InvalidAmount) as bad_fee:
        pot_entry_pay(table_ref="77", user_id=user.pk, amount=300)
    assert str(bad_fee.value) == "The entry fee is one of 100, 250, 500, 1000 coins."
    pot_entry_pay(table_ref="77", user_id=user.pk, amount=250)
    other = player(1000)
    with pytest.raises(InvalidAmount) as wrong:
        pot_entry_pay(table_ref="77", user_id=other.pk, amount=500)
    assert str(wrong.value) == "This table's entry fee is 250 coins."
    pot_refund_all(table_ref="77")
    with pytest.raises(PotClosed) as closed:
        pot_entry_pay(table_ref="77", user_id=other.pk, amount=250)
    assert str(closed.value) == "This table's pot is closed: it takes no more entries."
    for exc in (bad_fee.value, wrong.value, closed.value):
        assert not INTERNALS.search(str(exc)), str(exc)


def test_an_economy_error_shows_players_its_message_and_logs_its_detail(player):
    user = player(1000)
    with pytest.raises(InvalidAmount) as bad_fee:
        pot_entry_pay(table_ref="78", user_id=user.pk, amount=-5)
    err = bad_fee.value
    assert err.code == "invalid_amount"
    fees = "The entry fee is one of 100, 250, 500, 1000 coins."
    assert str(err) == err.detail == fees
    assert err.message == "That did not work; reload the page and try again."
    assert err.as_frame() == {
        "type": "error",
        "code": "invalid_amount",
        "message": "That did not work; reload the page and try again.",
    }
    assert not INTERNALS.search(err.message)
    closed = PotClosed("the pot of table 78 is settled")
    assert str(closed) == "the pot of table 78 is settled"
    assert closed.message == "This table is no longer taking players."
    assert "78" not in closed.message


def test_an_economy_errors_message_is_in_the_players_language():
    english = "You already claimed today's bonus. The next one opens at 00:00 UTC."
    with translation.override("es"):
        err = AlreadyClaimed("user 5 already has wallet:5:daily:2026-12-02")
        expected = translation.gettext(english)
    assert expected != english
    assert err.message == expected
    assert str(err) == "user 5 already has wallet:5:daily:2026-12-02"
    assert bonus_refusal(err) == expected
