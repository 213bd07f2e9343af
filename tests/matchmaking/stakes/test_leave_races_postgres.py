"""PostgreSQL with real threads: sitting, standing and leaving race each other and
the table's start, and a stake table's seats, sitters, count and pot still agree.

The table socket's ``leave`` is ``games.services.table_leave`` (what the consumer
awaits, see test_table_leave_sockets.py); Stand up and Sit down go through the
lobby's HTTP views, each thread with its own client.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from economy.selectors import pot_balance, wallet_balance
from games.errors import TableError
from games.models import Seat, Table
from games.services import table_leave, table_practice_create
from matchmaking.models import StakeSitter, StakeTable
from matchmaking.stakes import services as stakes
from tests.economy.test_postgres import run_threads
from tests.matchmaking.stakes.helpers import fund, snapshot
from tests.matchmaking.stakes.leave_helpers import (
    assert_books_agree,
    assert_every_stake_table_agrees,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def no_expiry(monkeypatch, queued, pushes):
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


def funded(make_user, coins: int):
    user = make_user()
    fund(user.pk, coins)
    return user


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, name: str, data: dict[str, str]) -> tuple[int, str]:
    """(status, error code or "ok") of one lobby call."""
    reply = client.post(reverse(name), data, **JSON)
    assert reply.status_code in (200, 400), (name, data, reply.status_code)
    body = reply.json()
    if reply.status_code == 400:
        message = body["error"]["message"]
        assert message and "Error" not in message and "{" not in message
        return 400, body["error"]["code"]
    return 200, "ok"


def assert_coins_kept(users, funded_each: int) -> None:
    """Every coin is in a wallet or a pot: nothing created, nothing lost."""
    wallets = sum(wallet_balance(user_id=u.pk) for u in users)
    pots = sum(
        pot_balance(table_ref=str(pk))
        for pk in StakeTable.objects.values_list("pk", flat=True)
    )
    assert wallets + pots == funded_each * len(users)


def test_sit_stand_loops_race_each_other_and_the_start(make_user):
    """Six players each Quick seat, Stand up, Quick seat … at 4-seat tables: some
    tables fill and start under them; every table's books agree at the end."""
    users = [funded(make_user, 300) for _ in range(6)]
    clients = {u.pk: client_for(u) for u in users}

    def loop(user, seed):
        rng = random.Random(seed)
        client, outcomes = clients[user.pk], []
        for _ in range(5):
            outcomes.append(
                post(client, "stakes-sit", {"stake": "100", "shape": "draw-4p"})
            )
            sitter = StakeSitter.objects.filter(user=user).first()
            if sitter is not None and rng.random() < 0.7:
                table = str(sitter.stake_table_id)
                outcomes.append(post(client, "stakes-stand", {"table": table}))
        return outcomes

    results = run_threads(loop, [(u, i) for i, u in enumerate(users)])
    assert not [r for r in results if isinstance(r, Exception)], results
    codes = Counter(code for outcomes in results for _, code in outcomes)
    assert set(codes) <= {"ok", "already_seated", "other_table", "table_started"}, codes
    assert_every_stake_table_agrees()
    assert_coins_kept(users, 300)
    seated = set(Seat.objects.values_list("user_id", flat=True))
    for user in users:
        # A seated player paid one entry, whoever stood up how often.
        expected = 200 if user.pk in seated else 300
        assert wallet_balance(user_id=user.pk) == expected, user


@pytest.mark.parametrize("seed", range(6))
def test_socket_leave_races_http_stand_up_and_the_start(make_user, seed):
    ana, ben = funded(make_user, 100), funded(make_user, 100)
    row = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    ana_http, ben_http = client_for(ana), client_for(ben)

    def socket_leave():
        try:
            table_leave(table_id=row.pk, user=ana)
        except TableError as err:
            return err.code
        return "ok"

    def http_stand():
        return post(ana_http, "stakes-stand", {"table": str(row.pk)})[1]

    def start():
        sit = {"stake": "100", "shape": "block-2", "table": str(row.pk)}
        return post(ben_http, "stakes-sit", sit)[1]

    calls = [(socket_leave,), (http_stand,), (start,)]
    random.Random(seed).shuffle(calls)
    results = dict(
        zip(
            [c[0].__name__ for c in calls],
            run_threads(lambda f: f(), calls),
            strict=True,
        )
    )
    assert not [r for r in results.values() if isinstance(r, Exception)], results
    status = Table.objects.get(pk=row.pk).status
    ana_seat = Seat.objects.filter(table_id=row.pk, user=ana).first()
    if status == Table.Status.PLAYING:
        # The start came first: ana cannot stand up; the socket forfeits her seat.
        assert results["start"] == "ok"
        assert results["http_stand"] == "table_started"
        assert results["socket_leave"] == "ok"
        assert ana_seat is not None and ana_seat.forfeited
        assert wallet_balance(user_id=ana.pk) == 0
    else:
        # One of the two leaves won and refunded; the other found no seat.
        assert sorted([results["socket_leave"], results["http_stand"]]) == [
            "not_seated",
            "ok",
        ], results
        assert ana_seat is None
        assert wallet_balance(user_id=ana.pk) == 100
        assert results["start"] == "ok"
    assert_books_agree(row.pk)
    assert_coins_kept([ana, ben], 100)


def test_same_player_in_two_tabs_sits_and_stands_once(make_user):
    ana = funded(make_user, 1000)
    tabs = [client_for(ana), client_for(ana)]
    other = stakes.stake_table_open(stake=100, shape=stakes.stake_shapes()["draw-4p"])

    def quick(tab):
        return post(tab, "stakes-sit", {"stake": "100", "shape": "draw-4p"})[1]

    def chosen(tab):
        data = {"stake": "100", "shape": "draw-4p", "table": str(other.pk)}
        return post(tab, "stakes-sit", data)[1]

    results = run_threads(lambda f, t: f(t), [(quick, tabs[0]), (chosen, tabs[1])])
    assert sorted(results) in (["ok", "other_table"], ["already_seated", "ok"]), results
    assert wallet_balance(user_id=ana.pk) == 900
    table = str(StakeSitter.objects.get(user=ana).stake_table_id)

    def stand(tab):
        return post(tab, "stakes-stand", {"table": table})[1]

    results = run_threads(stand, [(tab,) for tab in tabs])
    assert sorted(results) == ["not_seated", "ok"], results
    assert wallet_balance(user_id=ana.pk) == 1000
    assert_every_stake_table_agrees()
    # Both tabs sit down again at the same table: one seat, one new entry.
    again = {"stake": "100", "shape": "draw-4p", "table": table}
    results = run_threads(
        lambda tab: post(tab, "stakes-sit", again)[1], [(tab,) for tab in tabs]
    )
    assert sorted(results) == ["already_seated", "ok"], results
    assert wallet_balance(user_id=ana.pk) == 900
    assert_every_stake_table_agrees()


def test_double_submitted_sit_and_stand_forms_count_once(make_user):
    ana, ben = funded(make_user, 300), funded(make_user, 100)
    row = stakes.stake_sit(user=ben, stake=100, shape="draw-4p")
    tabs = [client_for(ana), client_for(ana)]
    sit = {"stake": "100", "shape": "draw-4p", "table": str(row.pk)}
    for sitting in range(1, 4):
        results = run_threads(
            lambda tab: post(tab, "stakes-sit", sit)[1], tabs_args(tabs)
        )
        assert sorted(results) == ["already_seated", "ok"], (sitting, results)
        assert wallet_balance(user_id=ana.pk) == 200
        assert pot_balance(table_ref=str(row.pk)) == 200
        assert_books_agree(row.pk)
        results = run_threads(
            lambda tab: post(tab, "stakes-stand", {"table": str(row.pk)})[1],
            tabs_args(tabs),
        )
        assert sorted(results) == ["not_seated", "ok"], (sitting, results)
        assert wallet_balance(user_id=ana.pk) == 300
        assert pot_balance(table_ref=str(row.pk)) == 100
        assert_books_agree(row.pk)


def tabs_args(tabs: list[Client]) -> list[tuple[Client]]:
    return [(tab,) for tab in tabs]


def test_forged_table_ids_in_a_crowd_change_nothing(make_user):
    ana, ben = funded(make_user, 1000), funded(make_user, 1000)
    mine = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    other_shape = stakes.stake_sit(user=ben, stake=250, shape="draw-4p")
    practice = table_practice_create(
        user=ben, variant="block", options={"target": 50}, bot_levels=["easy"]
    )
    before = snapshot()
    forged = [
        "999999",
        "-1",
        "abc",
        "1.5",
        "0x10",
        str(practice.pk),
        str(other_shape.pk),
    ]
    tabs = {f: client_for(ana) for f in forged}

    def forge(table):
        sit = {"stake": "100", "shape": "block-2", "table": table}
        return (
            post(tabs[table], "stakes-sit", sit),
            post(tabs[table], "stakes-stand", {"table": table}),
        )

    results = run_threads(forge, [(f,) for f in forged])
    assert not [r for r in results if isinstance(r, Exception)], results
    for sat, stood in results:
        assert sat[0] == stood[0] == 400, results
    assert snapshot() == before
    # The socket's leave with another table's id refuses in words too.
    for table_id in (practice.pk, other_shape.pk):
        with pytest.raises(TableError) as refused:
            table_leave(table_id=table_id, user=ana)
        assert refused.value.code == "not_seated"
    with pytest.raises(TableError):
        table_leave(table_id=987_654, user=ana)
    assert snapshot() == before
    assert_books_agree(mine.pk)
    assert_books_agree(other_shape.pk)
