"""Upgrading an account to a bot account: the service, the API endpoint and the
page; refused to staff, to accounts that played rated games or hold coins in a pot;
irreversible."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.bots import user_is_bot
from accounts.models import BotAccount
from api.bots import BotUpgradeError, bot_upgrade
from api.tokens import token_create
from games.models import Table
from matchmaking.pools.models import RatingChange
from tests.support.tables import finished_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def test_upgrade_makes_a_bot_for_good(make_user):
    robo = make_user("robo")
    bot_upgrade(user_id=robo.pk)
    assert user_is_bot(user_id=robo.pk)
    with pytest.raises(BotUpgradeError) as err:
        bot_upgrade(user_id=robo.pk)
    assert "already" in err.value.message
    assert BotAccount.objects.filter(user=robo).count() == 1


def test_staff_is_refused_in_words(make_user):
    boss = make_user("boss", is_staff=True)
    with pytest.raises(BotUpgradeError) as err:
        bot_upgrade(user_id=boss.pk)
    assert err.value.code == "staff"
    assert "staff" in err.value.message
    assert not user_is_bot(user_id=boss.pk)


def test_an_account_that_played_a_rated_game_is_refused(make_user):
    _table, ana, ben = finished_pair(make_user, mode=Table.Mode.ONLINE)
    with pytest.raises(BotUpgradeError) as err:
        bot_upgrade(user_id=ana.pk)
    assert err.value.code == "rated"
    assert "rated games" in err.value.message
    assert not BotAccount.objects.exists()


def test_a_rating_change_alone_is_refused(make_user):
    ana = make_user("ana")
    RatingChange.objects.create(
        user=ana,
        table_id=999,
        variant="draw",
        mu_before=25,
        sigma_before=8,
        mu_after=26,
        sigma_after=7,
    )
    with pytest.raises(BotUpgradeError) as err:
        bot_upgrade(user_id=ana.pk)
    assert err.value.code == "rated"


def test_a_friendly_game_does_not_stop_the_upgrade(make_user):
    _table, ana, _ben = finished_pair(make_user, mode=Table.Mode.FRIEND)
    bot_upgrade(user_id=ana.pk)
    assert user_is_bot(user_id=ana.pk)


def test_coins_in_an_open_pot_are_refused(make_user, monkeypatch):
    from api import bots

    robo = make_user("robo")
    monkeypatch.setattr(bots, "coins_held", lambda *, user_id: 50)
    with pytest.raises(BotUpgradeError) as err:
        bot_upgrade(user_id=robo.pk)
    assert err.value.code == "coins_held"
    assert not user_is_bot(user_id=robo.pk)


def test_coins_held_reads_open_escrow_entries(make_user):
    from api.bots import coins_held
    from economy.models import Account, Entry, Transaction
    from economy.services import wallet_grant_signup

    ana = make_user("ana")
    wallet_grant_signup(user_id=ana.pk)
    assert coins_held(user_id=ana.pk) == 0
    wallet = Account.objects.get(user=ana)
    pot = Account.objects.create(
        key="pot:test", kind="escrow", state="open", balance=0, table_ref="t1"
    )
    tx = Transaction.objects.create(key="entry:test", kind="entry", fingerprint="x")
    Entry.objects.create(transaction=tx, account=wallet, amount=-30)
    Entry.objects.create(transaction=tx, account=pot, amount=30)
    assert coins_held(user_id=ana.pk) == 30
    Account.objects.filter(pk=pot.pk).update(state="settled")
    assert coins_held(user_id=ana.pk) == 0


def test_the_api_endpoint_upgrades_the_tokens_own_account(make_user, client):
    robo = make_user("robo")
    _token, secret = token_create(owner=robo, name="my bot", scopes=["play"])
    url = reverse("api-bot-upgrade")
    assert url == "/api/bot/account/upgrade"
    assert client.post(url).status_code == 401  # no token: nothing changes
    assert not user_is_bot(user_id=robo.pk)
    response = client.post(url, HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200, response.content
    assert response.json()["bot"] is True
    assert user_is_bot(user_id=robo.pk)
    again = client.post(url, HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert again.status_code == 409
    assert "already" in again.json()["error"]


def test_a_read_token_cannot_upgrade(make_user, client):
    robo = make_user("robo")
    _token, secret = token_create(owner=robo, name="reader", scopes=["read"])
    response = client.post(
        reverse("api-bot-upgrade"), HTTP_AUTHORIZATION=f"Bearer {secret}"
    )
    assert response.status_code == 403
    assert not user_is_bot(user_id=robo.pk)


def test_the_page_confirms_in_words_before_upgrading(make_user, client):
    robo = make_user("robo")
    client.force_login(robo)
    page = client.get(reverse("bot-upgrade"))
    assert "cannot be undone" in page.content.decode()
    unconfirmed = client.post(reverse("bot-upgrade"), {})
    assert unconfirmed.status_code == 400
    assert not user_is_bot(user_id=robo.pk)
    done = client.post(reverse("bot-upgrade"), {"confirm": "yes"}, follow=True)
    assert user_is_bot(user_id=robo.pk)
    text = done.content.decode()
    assert "This account is a bot account" in text
    assert "bot-upgrade-form" not in text  # no way back from the page either


def test_the_page_shows_the_refusal_for_staff(make_user, client):
    boss = make_user("boss", is_staff=True)
    client.force_login(boss)
    page = client.get(reverse("bot-upgrade"))
    assert "A staff account cannot become a bot account" in page.content.decode()
    assert "bot-upgrade-form" not in page.content.decode()
    assert client.post(reverse("bot-upgrade"), {"confirm": "yes"}).status_code == 409
    assert not user_is_bot(user_id=boss.pk)


def test_no_downgrade_path_exists():
    from api import bot_urls, bots

    names = [p.name for p in bot_urls.urlpatterns]
    assert not [n for n in names if n and "down" in n]
    assert not [n for n in dir(bots) if "downgrade" in n or "revert" in n]
