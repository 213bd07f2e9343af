"""Stake matches played to the end through the table socket (timed jobs on a real
worker): the pot and the rewards land exactly once, and a forfeit in each shape."""

from __future__ import annotations

import random
import time

import pytest
from channels.db import database_sync_to_async

from economy.selectors import wallet_balance
from games.models import Seat
from matchmaking.models import StakeTable
from matchmaking.stakes import services as stakes
from matchmaking.stakes.sweep import stakes_overdue
from tests.games.test_table_socket import Player, play_to_the_end
from tests.matchmaking.stakes.helpers import assert_sound, fund, kinds_of

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SHAPES = {
    "block-2": {"variant": "block", "seats": 2, "target": 50},
    "draw-4p": {"variant": "draw", "seats": 4, "partnership": True, "target": 50},
}


@pytest.fixture(autouse=True)
def quick_tables(settings):
    settings.STAKE_SHAPES = SHAPES
    settings.STAKE_HAND_PAUSE_SECONDS = 0


def seated_table(make_user, *, shape: str, stake: int, seats: int):
    users = [make_user() for _ in range(seats)]
    for user in users:
        fund(user.pk, stake)
    row = stakes.stake_sit(user=users[0], stake=stake, shape=shape)
    for user in users[1:]:
        stakes.stake_sit(user=user, stake=stake, shape=shape, table_id=row.pk)
    assert StakeTable.objects.get(pk=row.pk).state == StakeTable.State.PLAYING
    assert all(wallet_balance(user_id=u.pk) == 0 for u in users)
    return row.pk, users


async def play_match(table_id: int, users, *, leaver: int | None, seed: int) -> dict:
    players = {i: await Player.join(table_id, u) for i, u in enumerate(users)}
    if leaver is not None:
        await players[leaver].send({"type": "leave"})
        await players[leaver].receive()
        await players.pop(leaver).comm.disconnect()
    final = await play_to_the_end(players, random.Random(seed))
    for player in players.values():
        await player.comm.disconnect()
    return final


def settled(table_id: int, timeout: float = 20) -> StakeTable:
    for _ in range(int(timeout * 5)):
        row = StakeTable.objects.get(pk=table_id)
        if row.state != StakeTable.State.PLAYING:
            return row
        time.sleep(0.2)
    raise AssertionError("the stake table was not settled")


def check_once(table_id: int, users, *, stake: int, rewards: dict[int, int]):
    """The pot went out once, to the seats in ``rewards`` with a pot share."""
    row = settled(table_id)
    assert row.state == StakeTable.State.SETTLED
    assert kinds_of("payout", table_id) == 1
    assert kinds_of("refund", table_id) == 0
    # The sweep finds nothing left to do: nothing is paid twice.
    assert stakes_overdue() == 0
    assert kinds_of("payout", table_id) == 1
    pot = stake * len(users)
    got = {u.pk: wallet_balance(user_id=u.pk) for u in users}
    assert sum(got.values()) == pot + sum(rewards.values())
    assert_sound()
    return got


def places(table_id: int) -> dict[int, tuple[int, bool, int | None]]:
    return {
        s.user_id: (s.place, s.forfeited, s.team)
        for s in Seat.objects.filter(table_id=table_id)
    }


async def test_two_seat_stake_match_pays_pot_and_rewards_once(
    make_user, celery_worker_running
):
    table_id, users = await database_sync_to_async(seated_table)(
        make_user, shape="block-2", stake=100, seats=2
    )
    final = await play_match(table_id, users, leaver=None, seed=3)
    assert final["table"]["status"] == "finished"

    def check():
        placed = places(table_id)
        winner = next(u for u in users if placed[u.pk][0] == 1)
        loser = next(u for u in users if u is not winner)
        got = check_once(
            table_id, users, stake=100, rewards={winner.pk: 100, loser.pk: 25}
        )
        assert got == {winner.pk: 200 + 100, loser.pk: 25}

    await database_sync_to_async(check)()


async def test_two_seat_forfeit_gets_neither_pot_nor_rewards(
    make_user, celery_worker_running
):
    table_id, users = await database_sync_to_async(seated_table)(
        make_user, shape="block-2", stake=250, seats=2
    )
    await play_match(table_id, users, leaver=1, seed=4)

    def check():
        placed = places(table_id)
        assert placed[users[1].pk][:2] == (2, True)
        got = check_once(table_id, users, stake=250, rewards={users[0].pk: 100})
        assert got == {users[0].pk: 500 + 100, users[1].pk: 0}

    await database_sync_to_async(check)()


async def test_four_seat_partnership_pot_splits_between_the_winning_side(
    make_user, celery_worker_running
):
    table_id, users = await database_sync_to_async(seated_table)(
        make_user, shape="draw-4p", stake=250, seats=4
    )
    await play_match(table_id, users, leaver=None, seed=5)

    def check():
        placed = places(table_id)
        winners = [u for u in users if placed[u.pk][0] == 1]
        assert len(winners) == 2 and len({placed[u.pk][2] for u in winners}) == 1
        rewards = {u.pk: 150 if u in winners else 30 for u in users}
        got = check_once(table_id, users, stake=250, rewards=rewards)
        assert got == {u.pk: (500 + 150 if u in winners else 30) for u in users}

    await database_sync_to_async(check)()


async def test_four_seat_forfeit_pays_the_remaining_partner_only(
    make_user, celery_worker_running
):
    table_id, users = await database_sync_to_async(seated_table)(
        make_user, shape="draw-4p", stake=100, seats=4
    )
    await play_match(table_id, users, leaver=1, seed=6)

    def check():
        placed = places(table_id)
        leaver = users[1]
        assert placed[leaver.pk][1] is True
        staying = [u for u in users if u is not leaver]
        best = min(placed[u.pk][0] for u in staying)
        winners = [u for u in staying if placed[u.pk][0] == best]
        team = placed[winners[0].pk][2]
        share = 400 // len(winners)
        rewards = {u.pk: 150 if placed[u.pk][2] == team else 30 for u in staying}
        got = check_once(table_id, users, stake=100, rewards=rewards)
        assert got[leaver.pk] == 0
        for u in staying:
            expected = rewards[u.pk] + (share if u in winners else 0)
            assert got[u.pk] == expected, (u.pk, placed)

    await database_sync_to_async(check)()
