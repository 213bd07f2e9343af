"""PostgreSQL with real threads: stake tables stay exact under races."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from economy.selectors import pot_balance, wallet_balance
from games.models import Seat, Table
from games.services import table_act
from matchmaking.errors import StakeError
from matchmaking.models import StakeSitter, StakeTable
from matchmaking.stakes import services as stakes
from matchmaking.stakes.services import stake_cancel, stake_sit
from matchmaking.stakes.settle import stake_settle
from tests.economy.test_postgres import run_threads
from tests.matchmaking.stakes.helpers import (
    assert_sound,
    drive_to_last_move,
    fund,
    kinds_of,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def expiries(monkeypatch):
    queued: list[int] = []
    monkeypatch.setattr(
        stakes, "expiry_queue", lambda tid, deadline: queued.append(tid)
    )
    return queued


def codes(results) -> Counter:
    return Counter(
        r.code if isinstance(r, StakeError) else type(r).__name__ for r in results
    )


def test_twenty_players_race_for_two_four_seat_tables(
    make_user, expiries, queued, pushes
):
    users = [make_user() for _ in range(20)]
    for user in users:
        fund(user.pk, 250)
    shape = stakes.stake_shapes()["draw-4p"]
    tables = [stakes.stake_table_open(stake=250, shape=shape).pk for _ in range(2)]
    calls = [(u, t) for u in users for t in tables]
    random.Random(1).shuffle(calls)

    def sit(user, table_id):
        return stake_sit(user=user, stake=250, shape="draw-4p", table_id=table_id)

    results = run_threads(sit, calls)
    seated = [r for r in results if isinstance(r, StakeTable)]
    assert len(seated) == 8, codes(results)
    refusals = set(codes(results)) - {"StakeTable"}
    assert refusals <= {"table_full", "table_started", "other_table"}, codes(results)
    assert not [r for r in results if not isinstance(r, StakeTable | StakeError)]
    # Nobody seated twice or overdrawn; every coin accounted for.
    seat_users = list(Seat.objects.values_list("user_id", flat=True))
    assert len(seat_users) == len(set(seat_users)) == 8
    balances = {u.pk: wallet_balance(user_id=u.pk) for u in users}
    assert sorted(balances.values()) == [0] * 8 + [250] * 12
    assert {uid for uid, b in balances.items() if b == 0} == set(seat_users)
    assert sum(pot_balance(table_ref=str(t)) for t in tables) == 8 * 250
    for table_id in tables:
        assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
        assert StakeTable.objects.get(pk=table_id).seats_taken == 4
    assert StakeSitter.objects.count() == 8
    assert_sound()


def test_quick_seat_racers_spread_over_tables_and_every_seat_is_paid_once(
    make_user, expiries, queued, pushes
):
    """Quick seat skips a table whose row another sit-down holds and takes the next
    (or opens one): however the racers spread, each table's count, seats, sitters
    and pot agree, and each player paid exactly one entry."""
    users = [make_user() for _ in range(14)]
    for user in users:
        fund(user.pk, 100)
    # Every player twice at once: one of the two calls must be refused.
    calls = [(u,) for u in users] * 2
    random.Random(2).shuffle(calls)

    def sit(user):
        return stake_sit(user=user, stake=100, shape="draw-4p")

    results = run_threads(sit, calls)
    assert sum(isinstance(r, StakeTable) for r in results) == 14, codes(results)
    assert set(codes(results)) - {"StakeTable"} <= {"other_table", "already_seated"}
    seat_users = list(Seat.objects.values_list("user_id", flat=True))
    assert sorted(seat_users) == sorted(u.pk for u in users)
    assert StakeSitter.objects.count() == 14
    assert all(wallet_balance(user_id=u.pk) == 0 for u in users)
    for row in StakeTable.objects.all():
        seats = Seat.objects.filter(table_id=row.pk).count()
        assert row.seats_taken == seats >= 1
        assert StakeSitter.objects.filter(stake_table=row).count() == seats
        assert pot_balance(table_ref=str(row.pk)) == 100 * seats
        full = row.state == StakeTable.State.PLAYING
        assert (
            full
            == (seats == 4)
            == (Table.objects.get(pk=row.pk).status == Table.Status.PLAYING)
        )
    assert_sound()


def test_one_player_racing_to_two_tables_sits_at_one(make_user, expiries):
    ana = make_user()
    fund(ana.pk, 5000)
    shape = stakes.stake_shapes()["draw-4p"]
    tables = [stakes.stake_table_open(stake=100, shape=shape).pk for _ in range(4)]

    def sit(table_id):
        return stake_sit(user=ana, stake=100, shape="draw-4p", table_id=table_id)

    results = run_threads(sit, [(t,) for t in tables])
    assert codes(results) == {"StakeTable": 1, "other_table": 3}
    assert wallet_balance(user_id=ana.pk) == 4900
    assert Seat.objects.filter(user=ana).count() == 1
    assert_sound()


def _two_seat_table_at_its_last_move(make_user, seed: int):
    ana, ben = make_user(), make_user()
    fund(ana.pk, 100)
    fund(ben.pk, 100)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    final = drive_to_last_move(row.pk, {0: ana, 1: ben}, rng=random.Random(seed))
    return row.pk, ana, ben, final


def _exactly_one_outcome(table_id: int, ana, ben) -> str:
    row = StakeTable.objects.get(pk=table_id)
    payouts, refunds = kinds_of("payout", table_id), kinds_of("refund", table_id)
    if row.state == StakeTable.State.SETTLED:
        assert (payouts, refunds) == (1, 0)
        assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED
    else:
        assert row.state == StakeTable.State.CANCELLED
        assert (payouts, refunds) == (0, 2)
    balances = wallet_balance(user_id=ana.pk) + wallet_balance(user_id=ben.pk)
    rewards = kinds_of("reward", table_id)
    assert balances == 200 + (125 if rewards else 0)
    assert pot_balance(table_ref=str(table_id)) == 0
    assert_sound()
    return str(row.state)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_last_move_racing_an_operator_abort_exactly_one_wins(
    make_user, expiries, queued, pushes, seed
):
    table_id, ana, ben, final = _two_seat_table_at_its_last_move(make_user, seed)

    def finish():
        return table_act(
            table_id=table_id,
            user=final.user,
            action=final.action,
            expected_seq=final.seq,
        )

    def abort():
        return stake_cancel(table_id=table_id, reason="operator", text="race")

    results = run_threads(lambda f: f(), [(finish,), (abort,)])
    state = _exactly_one_outcome(table_id, ana, ben)
    if state == "settled":
        assert isinstance(results[1], StakeError), results
    else:
        assert results[1] is True and isinstance(results[0], Exception), results


@pytest.mark.parametrize("seed", [21, 22])
def test_settle_racing_a_fault_cancel_exactly_one_wins(
    make_user, expiries, queued, pushes, monkeypatch, seed
):
    from matchmaking.stakes import receivers as stake_receivers

    # The finishing move's own settlement is held back: the two race instead.
    monkeypatch.setattr(stake_receivers, "stake_settle", lambda **_: "")
    table_id, ana, ben, final = _two_seat_table_at_its_last_move(make_user, seed)
    table_act(
        table_id=table_id, user=final.user, action=final.action, expected_seq=final.seq
    )
    assert StakeTable.objects.get(pk=table_id).state == StakeTable.State.PLAYING

    def settle():
        return stake_settle(table_id=table_id)

    def cancel():
        return stake_cancel(table_id=table_id, reason="fault", text="operator check")

    results = run_threads(lambda f: f(), [(settle,), (cancel,)] * 3)
    state = _exactly_one_outcome(table_id, ana, ben)
    assert all(
        not isinstance(r, Exception) or isinstance(r, StakeError) for r in results
    )
    assert results.count(True) == (1 if state == "cancelled" else 0)
