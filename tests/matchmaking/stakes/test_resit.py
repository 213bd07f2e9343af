"""The stake lobby's Quick seat, Stand up, Quick seat: each sitting pays its entry
(RULES.md §5), and forged requests are refused in words, changing nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from economy.models import Account
from economy.selectors import pot_balance, wallet_balance
from economy.services import ledger_correct
from games.models import Seat
from games.services import table_practice_create
from matchmaking.models import StakeSitter, StakeTable
from matchmaking.stakes import services as stakes
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixtures
    expiries_fixture,
    fund,
    logged_in_fixture,
    snapshot,
)
from tests.matchmaking.stakes.leave_helpers import assert_books_agree

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def quick_seat(client, stake: int = 100, shape: str = "draw-4p"):
    return client.post(
        reverse("stakes-sit"), {"stake": str(stake), "shape": shape}, **JSON
    )


def stand(client, table):
    return client.post(reverse("stakes-stand"), {"table": str(table)}, **JSON)


def test_quick_seat_stand_up_quick_seat_pays_again(client, make_user, logged_in):
    ben = make_user()
    fund(ben.pk, 100)
    row = stakes.stake_sit(user=ben, stake=100, shape="draw-4p")
    ana = logged_in(300)

    assert quick_seat(client).status_code == 200
    assert StakeSitter.objects.get(user=ana).stake_table_id == row.pk
    assert wallet_balance(user_id=ana.pk) == 200
    assert stand(client, row.pk).status_code == 200
    assert wallet_balance(user_id=ana.pk) == 300
    reply = quick_seat(client)

    assert reply.status_code == 200, reply.content
    # Seated at the same table again, and paid for it.
    assert StakeSitter.objects.get(user=ana).stake_table_id == row.pk
    assert wallet_balance(user_id=ana.pk) == 200
    assert pot_balance(table_ref=str(row.pk)) == 200
    assert_books_agree(row.pk)


def test_sitting_down_again_and_again_keeps_the_pot_at_the_seated_entries(
    client, logged_in
):
    ana = logged_in(100)
    reply = quick_seat(client, shape="block-2")
    table = StakeSitter.objects.get(user=ana).stake_table_id
    for _ in range(3):
        assert stand(client, table).status_code == 200
        assert wallet_balance(user_id=ana.pk) == 100
        reply = client.post(
            reverse("stakes-sit"),
            {"stake": "100", "shape": "block-2", "table": str(table)},
            **JSON,
        )
        assert reply.status_code == 200, reply.content
        assert wallet_balance(user_id=ana.pk) == 0
        assert_books_agree(table)
    assert pot_balance(table_ref=str(table)) == 100


def test_sitting_down_again_without_the_coins_is_refused_in_words(
    client, make_user, logged_in
):
    ana = logged_in(100)
    assert quick_seat(client, shape="block-2").status_code == 200
    table = StakeSitter.objects.get(user=ana).stake_table_id
    assert stand(client, table).status_code == 200
    # The refunded coins are gone meanwhile (an operator's correction).
    ledger_correct(
        account_id=Account.objects.get(key=f"wallet:{ana.pk}").pk,
        amount=-60,
        reason="test",
        operator_id=make_user().pk,
        request_key="resit-short",
    )
    before = snapshot()

    reply = client.post(
        reverse("stakes-sit"),
        {"stake": "100", "shape": "block-2", "table": str(table)},
        **JSON,
    )

    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["code"] == "not_enough_coins"
    assert "60" in error["message"]
    assert snapshot() == before
    assert_books_agree(table)


def test_forged_table_ids_are_refused_in_words_and_change_nothing(
    client, make_user, logged_in
):
    ana = logged_in(1000)
    ben = make_user()
    fund(ben.pk, 1000)
    mine = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    other_shape = stakes.stake_sit(user=ben, stake=100, shape="draw-4p")
    practice = table_practice_create(
        user=ben, variant="block", options={"target": 50}, bot_levels=["easy"]
    )
    before = snapshot()
    forged = ["999999", "-3", "0", "abc", "1e3", "", str(practice.pk)]
    for table in [*forged, str(other_shape.pk)]:
        for url, data in (
            ("stakes-sit", {"stake": "100", "shape": "block-2", "table": table}),
            ("stakes-stand", {"table": table}),
        ):
            reply = client.post(reverse(url), data, **JSON)
            if url == "stakes-sit" and table == "":
                continue  # no table: Quick seat (refused below: already seated)
            assert reply.status_code == 400, (url, table, reply.content)
            message = reply.json()["error"]["message"]
            assert message and table not in message.split() and "<" not in message
    for stake, shape in (("abc", "block-2"), ("100", "nope"), ("7", "block-2")):
        reply = client.post(
            reverse("stakes-sit"), {"stake": stake, "shape": shape}, **JSON
        )
        assert reply.status_code == 400
    assert snapshot() == before
    assert Seat.objects.filter(user=ana).count() == 1
    assert_books_agree(mine.pk)
    assert_books_agree(other_shape.pk)
    assert StakeTable.objects.count() == 2


def test_a_table_poisoned_behind_its_books_answers_in_words_and_stand_up_repairs(
    client, make_user, logged_in
):
    """A games seat freed behind the stake books' back (what the table socket did
    before it went through the stake service): no 500 anywhere, the leaver's
    Stand up refunds and puts the books right."""
    ana = logged_in(100)
    ben = make_user()
    fund(ben.pk, 100)
    row = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    Seat.objects.filter(table_id=row.pk, user=ana).delete()
    before = snapshot()

    # The books count ana, so ben's seat "fills" a table that cannot be dealt.
    other = Client()
    other.force_login(ben)
    reply = other.post(
        reverse("stakes-sit"),
        {"stake": "100", "shape": "block-2", "table": str(row.pk)},
        **JSON,
    )
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "table_closed"
    assert snapshot() == before

    reply = stand(client, row.pk)
    assert reply.status_code == 200, reply.content
    assert wallet_balance(user_id=ana.pk) == 100
    assert_books_agree(row.pk)
    stakes.stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    assert_books_agree(row.pk)
