"""The stake lobby page, its JSON calls, the result endpoint and the admin abort."""

from __future__ import annotations

import pytest
from django.urls import reverse

from economy.selectors import wallet_balance
from games.models import Table
from matchmaking.models import StakeTable
from matchmaking.stakes import services as stakes
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixtures
    expiries_fixture,
    fund,
    kinds_of,
    logged_in_fixture,
    snapshot,
)

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def test_the_lobby_lists_every_stake_and_shape_and_open_tables(client, logged_in):
    ana = logged_in()
    row = stakes.stake_sit(user=ana, stake=250, shape="draw-4p")
    page = client.get(reverse("stakes"))
    assert page.status_code == 200
    html = page.content.decode()
    for stake in (100, 250, 500, 1000):
        assert f'data-stake="{stake}" data-shape="draw-4p"' in html
    assert f'data-table="{row.pk}"' in html
    assert "1 of 4 seats taken" in html
    state = client.get(reverse("stakes-state")).json()
    assert state["you"]["id"] == row.pk and state["you"]["state"] == "open"
    group = next(
        g for g in state["groups"] if g["stake"] == 250 and g["shape"] == "draw-4p"
    )
    assert [t["id"] for t in group["tables"]] == [row.pk]
    assert 0 < group["tables"][0]["seconds_left"] <= 90


def test_sit_and_stand_through_the_json_calls(client, logged_in):
    ana = logged_in(250)
    reply = client.post(
        reverse("stakes-sit"), {"stake": "250", "shape": "block-2"}, **JSON
    )
    assert reply.status_code == 200, reply.content
    assert wallet_balance(user_id=ana.pk) == 0
    table_id = StakeTable.objects.get().pk
    reply = client.post(reverse("stakes-stand"), {"table": str(table_id)}, **JSON)
    assert reply.status_code == 200
    assert wallet_balance(user_id=ana.pk) == 250


@pytest.mark.parametrize(
    ("form", "code"),
    [
        ({"stake": "999", "shape": "block-2"}, "bad_stake"),
        ({"stake": "abc", "shape": "block-2"}, "bad_stake"),
        ({"stake": "100", "shape": "<script>"}, "bad_shape"),
        ({"stake": "100", "shape": "block-2", "table": "12abc"}, "no_table"),
        ({"stake": "100", "shape": "block-2", "table": "424242"}, "no_table"),
    ],
)
def test_bad_input_gets_a_code_and_a_message_and_moves_nothing(
    client, logged_in, form, code
):
    logged_in()
    before = snapshot()
    reply = client.post(reverse("stakes-sit"), form, **JSON)
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["code"] == code
    assert error["message"] and "Traceback" not in error["message"]
    assert "424242" not in error["message"]
    assert snapshot() == before


def test_not_enough_coins_through_the_form_shows_the_missing_amount(client, logged_in):
    logged_in(30)
    reply = client.post(
        reverse("stakes-sit"), {"stake": "100", "shape": "block-2"}, follow=True
    )
    assert "70 more coins" in reply.content.decode()


def test_the_result_endpoint_and_the_wallet_link_each_line_to_its_table(
    client, logged_in
):
    ana = logged_in(100)
    row = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    stakes.stake_cancel(table_id=row.pk, reason="unfilled")
    result = client.get(reverse("stakes-result", args=[row.pk])).json()
    assert result["state"] == "cancelled" and result["reason"] == "unfilled"
    assert result["pot"] == 100
    assert [
        (x["player"], x["entry"], x["refund"], x["payout"]) for x in result["lines"]
    ] == [(ana.username, 100, 100, 0)]
    assert client.get(reverse("stakes-result", args=[987654])).status_code == 404
    wallet = client.get(reverse("wallet")).content.decode()
    assert wallet.count(f'href="/tables/{row.pk}/"') == 2  # entry and refund
    assert f"Table {row.pk}" in client.get(reverse("stakes")).content.decode()


def test_an_operator_aborts_a_playing_table_with_a_reason(client, make_user):
    ana, ben = make_user(), make_user()
    fund(ana.pk, 100)
    fund(ben.pk, 100)
    row = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    stakes.stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    admin_user = make_user(is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    url = reverse("admin:matchmaking_staketable_changelist")
    form = {"action": "abort_and_refund", "_selected_action": [str(row.pk)]}
    asked = client.post(url, form)
    assert b"Reason" in asked.content
    assert Table.objects.get(pk=row.pk).status == Table.Status.PLAYING
    client.post(url, {**form, "apply": "1", "reason": "server lost its state"})
    row.refresh_from_db()
    assert row.state == "cancelled" and row.reason_text == "server lost its state"
    assert Table.objects.get(pk=row.pk).status == Table.Status.CANCELLED
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 100
    assert kinds_of("refund", row.pk) == 2
