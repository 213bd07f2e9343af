"""Stakes are unlocked by play (RULES.md §5): a new account sits at stake tables only
after a few rated tables, at higher stakes after more (``STAKES_UNLOCK``), and the
lobby says what is open and what opens the next."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from economy.selectors import wallet_balance
from games.models import Seat
from games.services import seat_join, seat_leave, table_create, table_start
from matchmaking.errors import StakeError
from matchmaking.stakes.models import StakeSitter, StakeTable
from matchmaking.stakes.services import stake_shapes, stake_sit
from matchmaking.stakes.unlock import rated_tables
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixtures
    expiries_fixture,
    fund,
)
from tests.support.tables import drive

pytestmark = pytest.mark.django_db

UNLOCK = {100: 3, 250: 10, 500: 20, 1000: 40}


@pytest.fixture(autouse=True)
def unlock_table(settings, stakes_open):
    """The production table (after the folder's fixture that opens every stake)."""
    settings.STAKES_UNLOCK = dict(UNLOCK)


def online_table(a, b, *, seed: int, leaver=None) -> int:
    """A two-person online table played to its end (``leaver`` forfeits first)."""
    table = table_create(
        mode="online", variant="draw", options={"target": 50}, hand_pause_seconds=0
    )
    seat_join(table_id=table.pk, user=a)
    seat_join(table_id=table.pk, user=b)
    table_start(table_id=table.pk)
    users = {0: a, 1: b}
    if leaver is not None:
        seat_leave(table_id=table.pk, user=leaver)
        users = {p: u for p, u in users.items() if u != leaver}
    drive(table.pk, users, rng=random.Random(seed))
    return table.pk


def test_a_new_account_is_refused_a_stake_seat_in_words(make_user, queued, pushes):
    fresh = make_user()
    fund(fresh.pk, 2000)
    with pytest.raises(StakeError) as refused:
        stake_sit(user=fresh, stake=1000, shape="block-2")
    assert refused.value.code == "stake_locked"
    assert refused.value.message == (
        "Tables of 1000 coins open after 40 rated tables: play 40 more online "
        "tables to the end first."
    )
    assert wallet_balance(user_id=fresh.pk) == 2000
    assert not StakeSitter.objects.exists()
    assert not StakeTable.objects.exists()


def test_a_stake_unlocks_by_honest_play(make_user, queued, pushes):
    ana, ben = make_user(), make_user()
    fund(ana.pk, 2000)
    for seed in (1, 2):
        online_table(ana, ben, seed=seed)
    assert rated_tables(user_id=ana.pk) == 2
    with pytest.raises(StakeError) as refused:
        stake_sit(user=ana, stake=100, shape="block-2")
    assert "play 1 more online table to the end" in refused.value.message
    online_table(ana, ben, seed=3)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    assert StakeSitter.objects.get(user=ana).stake_table_id == row.pk
    assert wallet_balance(user_id=ana.pk) == 1900
    # The next stake still needs seven more.
    with pytest.raises(StakeError) as refused:
        stake_sit(user=ana, stake=250, shape="all_fives-2")
    assert "play 7 more online tables" in refused.value.message


def test_a_forfeited_table_and_a_table_without_another_person_do_not_count(
    make_user, queued, pushes
):
    ana, ben = make_user(), make_user()
    online_table(ana, ben, seed=4, leaver=ana)
    assert Seat.objects.get(user=ana).forfeited
    practice = table_create(mode="online", variant="draw", options={"target": 50})
    seat_join(table_id=practice.pk, user=ana)
    seat_join(table_id=practice.pk, bot_level="easy")
    table_start(table_id=practice.pk)
    drive(practice.pk, {0: ana}, rng=random.Random(5))
    assert rated_tables(user_id=ana.pk) == 0
    assert rated_tables(user_id=ben.pk) == 1


def test_the_lobby_shows_what_is_open_and_what_opens_the_next(
    client, make_user, queued, pushes
):
    ana, ben = make_user(), make_user()
    client.force_login(ana)
    page = client.get(reverse("stakes")).content.decode()
    assert "you have played 0 rated tables" in page
    assert "Tables of 100 coins open after 3 rated tables: 3 more to play." in page
    assert "Locked: 3 more rated tables to play." in page
    assert 'data-action="sit"' not in page  # no Quick seat, no Sit down
    for seed in (6, 7, 8):
        online_table(ana, ben, seed=seed)
    page = client.get(reverse("stakes")).content.decode()
    assert "you have played 3 rated tables" in page
    assert "Open to you: 100 coins" in page
    assert "Tables of 250 coins open after 10 rated tables: 7 more to play." in page
    assert page.count('data-action="sit"') == len(stake_shapes())  # Quick seats
    state = client.get(reverse("stakes-state")).json()
    assert state["unlock"] == {
        "rated": 3,
        "open": [100],
        "next": {"stake": 250, "needed": 10, "more": 7},
    }
    assert {g["stake"]: g["more"] for g in state["groups"]} == {
        100: 0,
        250: 7,
        500: 17,
        1000: 37,
    }


def test_the_lobby_refuses_a_locked_stake_in_words(client, make_user):
    fresh = make_user()
    fund(fresh.pk, 2000)
    client.force_login(fresh)
    resp = client.post(
        reverse("stakes-sit"),
        {"stake": "100", "shape": "block-2"},
        HTTP_ACCEPT="application/json",
    )
    assert resp.status_code == 400
    error = resp.json()["error"]
    assert error["code"] == "stake_locked"
    assert "play 3 more online tables to the end first" in error["message"]
    assert wallet_balance(user_id=fresh.pk) == 2000
