"""A bot account receives no minted coin: the daily bonus is refused in words."""

import pytest
from django.urls import reverse

from accounts.models import BotAccount
from economy.errors import EarningBarred
from economy.models import Transaction
from economy.selectors import wallet_balance
from economy.services import daily_bonus_claim

pytestmark = pytest.mark.django_db


def test_a_bot_account_is_refused_the_daily_bonus_and_nothing_moves(client, player):
    bot = player()
    BotAccount.objects.create(user=bot)
    before = Transaction.objects.count()
    with pytest.raises(EarningBarred):
        daily_bonus_claim(user_id=bot.pk)
    client.force_login(bot)
    page = client.post(reverse("wallet_daily_bonus"), follow=True).content.decode()
    assert "Bot accounts receive no coins." in page
    assert wallet_balance(user_id=bot.pk) == 0
    assert Transaction.objects.count() == before


def test_a_person_still_gets_the_bonus(player):
    person = player()
    daily_bonus_claim(user_id=person.pk)
    assert wallet_balance(user_id=person.pk) > 0
