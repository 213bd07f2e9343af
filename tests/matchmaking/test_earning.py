"""Earning needs playing (RULES.md §5): coins, XP and league points only for a seat
its owner mostly played; a friend room pays only with two people at its start; a
pot follows the result whatever the seat's presence."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from economy.audit import ledger_audit
from economy.models import Transaction
from economy.selectors import player_xp, pot_state, wallet_balance
from games.earning import ALONE, STANDIN, decisions_by_seat
from games.models import Seat, Table
from games.payloads import seats_public
from leagues.models import PointEntry
from matchmaking.models import Room, StakeTable
from matchmaking.stakes.services import stake_sit
from tests.matchmaking.stakes.helpers import fund
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


def minted_to(user) -> int:
    """Reward coins the mint paid ``user`` (sign-up grants aside)."""
    return sum(
        e.amount
        for t in Transaction.objects.filter(kind=Transaction.Kind.REWARD)
        for e in t.entries.all()
        if e.account.user_id == user.pk
    )


def test_a_seat_away_all_match_earns_nothing_and_says_why(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = two_human_table(make_user, mode="online", clock=30, target=50)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana}, rng=random.Random(2))  # ben never acts
    assert table.status == Table.Status.FINISHED
    total, own = decisions_by_seat(table.pk)
    assert total[1] > 0 and own[1] == 0 and own[0] == total[0] > 0
    seats = {s.user_id: s for s in table.seats.all()}
    assert seats[ben.pk].unpaid == STANDIN and seats[ana.pk].unpaid == ""
    assert minted_to(ben) == 0 and player_xp(user_id=ben.pk) == 0
    assert minted_to(ana) > 0 and player_xp(user_id=ana.pk) > 0
    assert not PointEntry.objects.filter(user=ben).exists()
    assert PointEntry.objects.filter(user=ana, table_id=table.pk).exists()
    shown = {s["position"]: s["unpaid"] for s in seats_public(list(seats.values()))}
    assert shown == {0: None, 1: STANDIN}
    assert ledger_audit() == []


def test_a_backfilled_table_whose_searcher_walked_away_pays_nothing(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    from games.services import seat_join, table_create, table_start

    ana = make_user("ana")
    table = table_create(
        mode="online", variant="draw", options={"target": 50}, clock_seconds=30
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, bot_level="medium", simulated=True, name="Vera42")
    table_start(table_id=table.pk)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {}, rng=random.Random(5))
    assert table.seats.get(user=ana).unpaid == STANDIN
    assert wallet_balance(user_id=ana.pk) == 0 and player_xp(user_id=ana.pk) == 0
    assert not PointEntry.objects.exists()


def test_a_friend_room_of_one_person_and_computers_pays_nothing(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    host = make_user("host")
    client.force_login(host)
    form = {
        "variant": "draw",
        "set_max": "6",
        "seats": "2",
        "target": "100",
        "clock": "30",
        "bot_level": "easy",
        "host_seat": "1",
    }
    assert client.post(reverse("room-new"), form).status_code == 302
    room = Room.objects.get(host=host)
    started = client.post(
        reverse("room-start", args=[room.pk]), HTTP_ACCEPT="application/json"
    )
    assert started.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(room.table_id, {}, rng=random.Random(1))  # the tab was closed
    assert table.status == Table.Status.FINISHED
    assert table.seats.get(user=host).unpaid == ALONE
    assert wallet_balance(user_id=host.pk) == 0 and player_xp(user_id=host.pk) == 0


def test_a_friend_room_of_two_people_still_pays_its_winner(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = two_human_table(make_user, mode="friend", target=50)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(4))
    winner = table.seats.get(place=1).user
    assert not table.seats.exclude(unpaid="").exists()
    assert wallet_balance(user_id=winner.pk) > 0


def test_a_stake_pot_follows_the_result_but_an_absent_seat_earns_no_reward(
    make_user, queued, pushes, django_capture_on_commit_callbacks, monkeypatch
):
    from matchmaking.stakes import services as stakes

    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)
    ana, ben = make_user("ana"), make_user("ben")
    fund(ana.pk, 1000)
    fund(ben.pk, 1000)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    with django_capture_on_commit_callbacks(execute=True):
        stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    Table.objects.filter(pk=row.pk).update(clock_seconds=30)
    seat_of = dict(
        Seat.objects.filter(table_id=row.pk).values_list("user_id", "position")
    )
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(row.pk, {seat_of[ana.pk]: ana}, rng=random.Random(8))
    assert StakeTable.objects.get(pk=row.pk).state == StakeTable.State.SETTLED
    assert pot_state(table_ref=str(row.pk)) == "settled"
    winner = table.seats.get(place=1).user
    loser = ana if winner == ben else ben
    # The whole pot to the winner, present or not; rewards only to who played.
    assert wallet_balance(user_id=winner.pk) == 1100 + minted_to(winner)
    assert wallet_balance(user_id=loser.pk) == 900 + minted_to(loser)
    assert table.seats.get(user=ben).unpaid == STANDIN
    assert minted_to(ben) == 0 and player_xp(user_id=ben.pk) == 0
    assert player_xp(user_id=ana.pk) > 0
    assert ledger_audit() == []


def test_two_accounts_of_one_person_count_three_tables_a_day_together(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    """Farming league points with a second account: the same pair counts at most
    three tables a day (RULES.md §6), through the real finish of each table."""
    from games.services import seat_join, table_create, table_start

    ana, alt = make_user("ana"), make_user("ana_alt")
    tables = []
    for i in range(4):
        table = table_create(
            mode="online", variant="draw", options={"target": 50}, hand_pause_seconds=0
        )
        seat_join(table_id=table.pk, user=ana)
        seat_join(table_id=table.pk, user=alt)
        table_start(table_id=table.pk)
        with django_capture_on_commit_callbacks(execute=True):
            tables.append(drive(table.pk, {0: ana, 1: alt}, rng=random.Random(i)))
    counted = [
        set(PointEntry.objects.filter(table_id=t.pk).values_list("counted", flat=True))
        for t in tables
    ]
    assert counted == [{True}, {True}, {True}, {False}]
    assert ledger_audit() == []
