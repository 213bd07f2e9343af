"""The sit-and-go pages and forms: what a player sees, and refusals that change
nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from economy.selectors import wallet_balance
from tests.tournaments.sitgo.helpers import fill, fund, live_tables, play_out, snapshot
from tournaments.sitgo.models import SitGo, SitGoEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, make_user):
    def make(coins: int = 1000):
        user = make_user()
        fund(user.pk, coins)
        client.force_login(user)
        return user

    return make


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_index_shows_every_kind_with_its_payout_table(client, player):
    player()
    page = client.get(reverse("tournaments"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Stake sit-and-go" in body
    assert body.count('data-sitgo-kind="') == 8
    assert "#1: 65% (650)" in body and "#2: 35% (350)" in body  # 4 x 250
    assert "#1: 50% (400)" in body and "#3: 20% (160)" in body  # 8 x 100


def test_entering_from_the_index_and_withdrawing(client, player, queued, pushes):
    ana = player(300)
    reply = client.post(
        reverse("sitgo-enter"), {"size": "4", "entry": "250"}, follow=True
    )
    row = SitGo.objects.get()
    assert reply.redirect_chain[-1][0] == reverse("sitgo", args=[row.pk])
    assert "250 coins are in the pot" in " ".join(messages_of(reply))
    assert wallet_balance(user_id=ana.pk) == 50
    body = reply.content.decode()
    assert f'data-entrant="{ana.username}"' in body and "Withdraw" in body
    index = client.get(reverse("tournaments")).content.decode()
    assert "1 of 4" in index and "You are in: open" in index
    reply = client.post(reverse("sitgo-withdraw", args=[row.pk]), follow=True)
    assert "250 coins are back in your wallet" in " ".join(messages_of(reply))
    assert wallet_balance(user_id=ana.pk) == 300
    assert not SitGoEntry.objects.exists()


@pytest.mark.parametrize(
    ("setup", "text"),
    [
        ("poor", "You need 60 more coins to enter this sit-and-go."),
        ("twice", "You are already in this sit-and-go."),
        ("started", "This sit-and-go has started already."),
        ("late", "This sit-and-go ran out of time to fill."),
    ],
)
def test_refused_entries_say_why_and_change_nothing(
    client, player, make_user, queued, pushes, setup, text
):
    others = [make_user() for _ in range(4)]
    for other in others:
        fund(other.pk, 100)
    row = fill(others if setup == "started" else others[:1], size=4)
    if setup == "late":
        SitGo.objects.filter(pk=row.pk).update(
            fill_deadline=timezone.now() - timedelta(seconds=1)
        )
    me = player(40 if setup == "poor" else 1000)
    if setup == "twice":
        client.post(reverse("sitgo-enter"), {"sitgo": str(row.pk)})
    before = (snapshot(), list(SitGoEntry.objects.values_list("pk", "user_id")))
    reply = client.post(reverse("sitgo-enter"), {"sitgo": str(row.pk)}, follow=True)
    said = " ".join(messages_of(reply))
    assert text in said, said
    assert "sitgo-" not in said and "Error" not in said
    if setup != "late":  # a late page view cancels and refunds the expired event
        assert (snapshot(), list(SitGoEntry.objects.values_list("pk", "user_id"))) == (
            before
        )
    assert SitGoEntry.objects.filter(user=me).count() == (1 if setup == "twice" else 0)


@pytest.mark.parametrize(
    "form", [{"size": "5", "entry": "100"}, {"size": "4", "entry": "x"}, {}]
)
def test_forged_forms_are_refused_in_words(client, player, form):
    player()
    before = snapshot()
    reply = client.post(reverse("sitgo-enter"), form, follow=True)
    assert reply.status_code == 200
    assert messages_of(reply)
    assert snapshot() == before


def test_withdrawing_from_a_started_event_is_refused(client, player, queued, pushes):
    me = player(100)
    others = [player(100) for _ in range(3)]
    row = fill([me, *others], size=4)
    client.force_login(me)
    reply = client.post(reverse("sitgo-withdraw", args=[row.pk]), follow=True)
    assert "your entry stays in the pot" in " ".join(messages_of(reply))
    assert wallet_balance(user_id=me.pk) == 0
    page = client.get(reverse("sitgo", args=[row.pk])).content.decode()
    assert "Go to your table" in page and "Playing" in page
    state = client.get(reverse("sitgo-state", args=[row.pk])).json()
    assert state["state"] == "running" and state["current_table"]


def test_unknown_event_is_not_found(client, player):
    player()
    assert client.get(reverse("sitgo", args=[424242])).status_code == 404


def test_a_sit_and_go_table_page_leads_back_to_the_sit_and_go(
    client, player, queued, pushes, django_capture_on_commit_callbacks
):
    users = [player(100) for _ in range(4)]
    row = fill(users, size=4)
    (game,) = live_tables(row)
    back = f'<a class="button" href="/tournaments/sitgo/{row.pk}/" data-event>'
    client.force_login(users[0])
    html = client.get(reverse("table", args=[game.table_id])).content.decode()
    assert back + "Back to the sit-and-go</a>" in html
    assert "Find another table" not in html
    # Still there once the game is over (beside the match's end actions).
    play_out(game.table_id, capture=django_capture_on_commit_callbacks)
    html = client.get(reverse("table", args=[game.table_id])).content.decode()
    assert back in html
