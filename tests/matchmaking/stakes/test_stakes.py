"""Stake tables: sitting down pays, standing up refunds, bad input moves nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from economy.selectors import pot_balance, pot_state, wallet_balance
from games.models import Seat, Table
from matchmaking.errors import StakeError
from matchmaking.models import StakeSitter, StakeTable
from matchmaking.stakes import busy as stake_busy
from matchmaking.stakes import services as stakes
from matchmaking.stakes.services import (
    stake_cancel,
    stake_expire,
    stake_sit,
    stake_stand,
)
from matchmaking.stakes.sweep import stakes_overdue
from tests.matchmaking.stakes.helpers import (
    assert_sound,
    fund,
    kinds_of,
    snapshot,
)
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


@pytest.fixture
def expiries(monkeypatch):
    """Record fill-deadline tasks instead of sending them to a broker."""
    queued: list[int] = []
    monkeypatch.setattr(
        stakes, "expiry_queue", lambda tid, deadline: queued.append(tid)
    )
    return queued


@pytest.fixture
def cancel_pushes(pushes):
    """Record what the cancel service hands to the channel layer."""
    return pushes


@pytest.fixture
def rich(make_user):
    def make(coins: int = 1000):
        user = make_user()
        if coins:
            fund(user.pk, coins)
        return user

    return make


def refused(code: str, **kwargs) -> StakeError:
    before = snapshot()
    seats = list(Seat.objects.values_list("pk", "user_id"))
    with pytest.raises(StakeError) as caught:
        stake_sit(**kwargs)
    assert caught.value.code == code
    assert snapshot() == before, "a refused sit moved coins"
    assert list(Seat.objects.values_list("pk", "user_id")) == seats
    return caught.value


def test_sitting_pays_the_entry_and_the_last_seat_starts_the_table(
    rich, expiries, queued, pushes, django_capture_on_commit_callbacks
):
    ana, ben = rich(300), rich(300)
    with django_capture_on_commit_callbacks(execute=True):
        row = stake_sit(user=ana, stake=100, shape="block-2")
    assert expiries == [row.pk]
    assert wallet_balance(user_id=ana.pk) == 200
    assert pot_balance(table_ref=str(row.pk)) == 100
    assert Table.objects.get(pk=row.pk).status == Table.Status.WAITING
    # Quick seat finds the open table closest to full.
    row2 = stake_sit(user=ben, stake=100, shape="block-2")
    assert row2.pk == row.pk
    row.refresh_from_db()
    assert row.state == StakeTable.State.PLAYING
    assert Table.objects.get(pk=row.pk).status == Table.Status.PLAYING
    assert pot_balance(table_ref=str(row.pk)) == 200
    assert_sound()


def test_quick_seat_prefers_the_table_closest_to_full(rich, expiries):
    users = [rich() for _ in range(4)]
    first = stake_sit(user=users[0], stake=250, shape="draw-4p")
    other = stakes.stake_table_open(stake=250, shape=stakes.stake_shapes()["draw-4p"])
    stake_sit(user=users[1], stake=250, shape="draw-4p", table_id=other.pk)
    stake_sit(user=users[2], stake=250, shape="draw-4p", table_id=other.pk)
    picked = stake_sit(user=users[3], stake=250, shape="draw-4p")
    assert picked.pk == other.pk
    assert picked.seats_taken == 3
    assert first.pk != other.pk


FRAMING = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")


def test_a_sit_down_costs_a_bounded_number_of_statements(
    rich, expiries, queued, pushes
):
    """Counts what ``bench/stakes.py`` pays for: whether the player is a bot account
    (refused here, and flagged on the seat it writes), the player's commitment lock
    (PostgreSQL only), the busy checks (an online search, a sit-and-go), take the stake
    row and claim the sitter row (one statement on PostgreSQL, two on SQLite), ask
    whether an account linked to the player sits there (RULES.md §5), lock the games
    table reading its seats, the seat, lock the pot and wallet, the entry (one statement
    on PostgreSQL, three on SQLite). Opening a table adds its rows and pot; the last
    seat adds the deal."""
    users = [rich() for _ in range(4)]
    join = 11 if connection.vendor == "postgresql" else 13
    counts = []
    for user in users:
        with CaptureQueriesContext(connection) as queries:
            stake_sit(user=user, stake=100, shape="draw-4p")
        counts.append(len([q for q in queries if not q["sql"].startswith(FRAMING)]))
        # The deal joins the sit-down's transaction: no savepoint of its own
        # (the one savepoint is the sit-down's, inside the test's transaction).
        assert len([q for q in queries if q["sql"].startswith("SAVEPOINT")]) <= 1
    # Opening: a missed pick, the games table, the stake row, the pot.
    # Starting: lock the table, its seats, the event, the table's new state (the
    # event and the new state one statement on PostgreSQL, games.rows.move_write).
    start = 3 if connection.vendor == "postgresql" else 4
    assert counts == [join + 4, join, join, join + start], counts
    assert StakeTable.objects.get().state == StakeTable.State.PLAYING
    assert_sound()


def test_not_enough_coins_says_how_many_are_missing(rich, expiries):
    poor = rich(60)
    error = refused("not_enough_coins", user=poor, stake=100, shape="block-2")
    assert "40 more coins" in error.message
    assert not StakeSitter.objects.exists()
    assert wallet_balance(user_id=poor.pk) == 60


def test_standing_up_before_the_start_refunds_at_once(rich, expiries):
    ana = rich(500)
    row = stake_sit(user=ana, stake=250, shape="draw-4p")
    assert wallet_balance(user_id=ana.pk) == 250
    stake_stand(user=ana, table_id=row.pk)
    assert wallet_balance(user_id=ana.pk) == 500
    assert pot_balance(table_ref=str(row.pk)) == 0
    assert not Seat.objects.filter(table_id=row.pk).exists()
    assert not StakeSitter.objects.exists()
    # A second stand-up is refused and refunds nothing more.
    with pytest.raises(StakeError) as caught:
        stake_stand(user=ana, table_id=row.pk)
    assert caught.value.code == "not_seated"
    assert wallet_balance(user_id=ana.pk) == 500
    # A player who stood up sits elsewhere; the table later cancels cleanly.
    stake_sit(user=ana, stake=100, shape="block-2")
    assert stake_cancel(table_id=row.pk, reason="unfilled")
    assert kinds_of("refund", row.pk) == 1
    assert_sound()


def test_bad_input_is_refused_with_a_code_and_moves_nothing(rich, expiries):
    ana, ben, cid = rich(), rich(), rich()
    refused("bad_stake", user=ana, stake=300, shape="block-2")
    refused("bad_stake", user=ana, stake="100", shape="block-2")
    refused("bad_shape", user=ana, stake=100, shape="spider-9")
    refused("no_table", user=ana, stake=100, shape="block-2", table_id=999_999)
    refused("no_table", user=ana, stake=100, shape="block-2", table_id=-3)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    refused("already_seated", user=ana, stake=100, shape="block-2", table_id=row.pk)
    refused("other_table", user=ana, stake=250, shape="draw-4p")
    refused("wrong_shape", user=ben, stake=100, shape="all_fives-2", table_id=row.pk)
    refused("wrong_stake", user=ben, stake=500, shape="block-2", table_id=row.pk)
    stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    refused("table_started", user=cid, stake=100, shape="block-2", table_id=row.pk)
    with pytest.raises(StakeError) as caught:
        stake_stand(user=ben, table_id=row.pk)
    assert caught.value.code == "table_started"
    waiting = stake_sit(user=cid, stake=500, shape="block-2")
    stake_cancel(table_id=waiting.pk, reason="operator", text="test")
    dan = rich()
    refused(
        "table_cancelled", user=dan, stake=500, shape="block-2", table_id=waiting.pk
    )
    with pytest.raises(StakeError) as caught:
        stake_stand(user=ana, table_id=123_456)
    assert caught.value.code == "no_table"


def test_a_full_table_refuses_a_further_sit(rich, expiries):
    users = [rich() for _ in range(3)]
    row = stakes.stake_table_open(stake=100, shape=stakes.stake_shapes()["block-2"])
    StakeTable.objects.filter(pk=row.pk).update(seats_taken=2)
    refused("table_full", user=users[0], stake=100, shape="block-2", table_id=row.pk)


def test_a_player_searching_an_online_pool_cannot_sit(rich, expiries, monkeypatch):
    ana = rich()
    monkeypatch.setattr(
        stake_busy,
        "BUSY_CHECKS",
        [
            lambda uid: (
                "You are searching for an online table." if uid == ana.pk else None
            )
        ],
    )
    error = refused("busy_elsewhere", user=ana, stake=100, shape="block-2")
    assert error.message == "You are searching for an online table."


def test_an_unfilled_table_is_cancelled_at_its_deadline_and_refunded_once(
    rich, expiries, cancel_pushes, django_capture_on_commit_callbacks
):
    ana, ben = rich(250), rich(250)
    row = stake_sit(user=ana, stake=250, shape="draw-4p")
    stake_sit(user=ben, stake=250, shape="draw-4p", table_id=row.pk)
    assert not stake_expire(table_id=row.pk), "cancelled before its deadline"
    StakeTable.objects.filter(pk=row.pk).update(
        fill_deadline=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert stake_expire(table_id=row.pk)
    assert not stake_expire(table_id=row.pk)
    assert stakes_overdue() == 0
    assert Table.objects.get(pk=row.pk).status == Table.Status.CANCELLED
    assert StakeTable.objects.get(pk=row.pk).reason == "unfilled"
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 250
    assert pot_state(table_ref=str(row.pk)) == "refunded"
    assert kinds_of("refund", row.pk) == 2
    # Everyone seated is told: the table's groups get the cancelled state.
    frames = [m for _, m in cancel_pushes if m["type"] == "outbox.frames"]
    cancelled = [m for m in frames if '"status": "cancelled"' in m["text"]]
    assert len(cancelled) == 2  # the two seats (nobody watches: no spectators frame)
    assert_sound()


def test_the_sweep_cancels_an_unfilled_table_whose_task_was_lost(rich, expiries):
    ana = rich(100)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    StakeTable.objects.filter(pk=row.pk).update(
        fill_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert stakes_overdue() == 1
    assert stakes_overdue() == 0
    assert wallet_balance(user_id=ana.pk) == 100
    assert kinds_of("refund", row.pk) == 1


def test_settlement_pays_the_whole_pot_to_the_winner_once(
    rich, expiries, queued, pushes, django_capture_on_commit_callbacks
):
    ana, ben = rich(500), rich(500)
    row = stake_sit(user=ana, stake=500, shape="block-2")
    stake_sit(user=ben, stake=500, shape="block-2", table_id=row.pk)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(row.pk, {0: ana, 1: ben}, rng=random.Random(3))
    assert table.status == Table.Status.FINISHED
    places = dict(table.seats.values_list("user_id", "place"))
    winner, loser = (ana, ben) if places[ana.pk] == 1 else (ben, ana)
    row.refresh_from_db()
    assert row.state == StakeTable.State.SETTLED
    assert kinds_of("payout", row.pk) == 1
    # Pot 1000 to the winner, plus the online rewards of a 2-seat table.
    assert wallet_balance(user_id=winner.pk) == 1000 + 100
    assert wallet_balance(user_id=loser.pk) == 0 + 25
    assert not StakeSitter.objects.exists()
    assert stakes_overdue() == 0
    from matchmaking.stakes.settle import stake_settle

    assert stake_settle(table_id=row.pk) == "settled"
    assert wallet_balance(user_id=winner.pk) == 1100
    with pytest.raises(StakeError):
        stake_cancel(table_id=row.pk, reason="operator", text="too late")
    assert_sound()


def test_a_forfeited_solo_seat_gets_neither_pot_nor_rewards(
    rich, expiries, queued, pushes, django_capture_on_commit_callbacks
):
    from games.services import seat_leave

    ana, ben = rich(100), rich(100)
    row = stake_sit(user=ana, stake=100, shape="all_fives-2")
    stake_sit(user=ben, stake=100, shape="all_fives-2", table_id=row.pk)
    seat_leave(table_id=row.pk, user=ben)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(row.pk, {0: ana}, rng=random.Random(5))
    assert table.status == Table.Status.FINISHED
    assert dict(table.seats.values_list("user_id", "place")) == {ana.pk: 1, ben.pk: 2}
    assert wallet_balance(user_id=ana.pk) == 200 + 100
    assert wallet_balance(user_id=ben.pk) == 0
    assert_sound()


def test_a_fault_refunds_instead_of_settling_on_a_guess(
    rich, expiries, queued, pushes, django_capture_on_commit_callbacks
):
    from games.models import TableEvent

    ana, ben = rich(100), rich(100)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)

    def lose_a_move(table: Table) -> None:
        """A log entry goes missing: the stored result no longer replays."""
        TableEvent.objects.filter(table_id=row.pk, seq=2).delete()

    with django_capture_on_commit_callbacks(execute=True):
        drive(row.pk, {0: ana, 1: ben}, rng=random.Random(8), on_step=lose_a_move)
    row.refresh_from_db()
    assert row.state == StakeTable.State.CANCELLED
    assert row.reason == "fault"
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 100
    assert kinds_of("payout", row.pk) == 0
    assert_sound()
