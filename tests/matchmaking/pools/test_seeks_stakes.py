"""Stake seeks: an open table of the lobby whose seats are a stake table's, each
entry taken by the stake books once and refunded once."""

from __future__ import annotations

import pytest

from economy.selectors import pot_balance, wallet_balance
from games.models import Table
from matchmaking.errors import MatchError
from matchmaking.models import Seek, SeekPlayer, StakeTable
from matchmaking.pools.seek_selectors import seeks_list
from matchmaking.pools.seeks import (
    seek_abandon,
    seek_join,
    seek_leave,
    seek_open,
    seek_start,
    seeks_expire_abandoned,
)
from tests.economy.conftest import assert_sound, fund
from tests.matchmaking.stakes.helpers import expiries_fixture  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes, lobby_frames, no_wave_tasks, settings):
    """No broker and no channel layer; every stake open to new players."""
    settings.STAKES_UNLOCK = {}


def funded(make_user, name: str, coins: int = 1000):
    user = make_user(name)
    fund(user.pk, coins)
    return user


def test_a_stake_seek_takes_each_entry_and_plays_as_a_stake_table(make_user):
    ana, ben = funded(make_user, "ana"), funded(make_user, "ben")
    seek = seek_open(user_id=ana.pk, pool_key="block-2", speed="fast", stake=100)
    assert wallet_balance(user_id=ana.pk) == 900
    assert pot_balance(table_ref=str(seek.stake_table_id)) == 100
    assert seeks_list(user_id=ben.pk)[0]["stake"] == 100
    seek_join(user_id=ben.pk, seek_id=seek.pk)
    seek.refresh_from_db()
    assert seek.status == "started" and seek.table_id == seek.stake_table_id
    table = Table.objects.get(pk=seek.table_id)
    assert table.mode == "stake" and table.status == "playing"
    assert table.clock_seconds == 10 and table.bank_seconds == 60
    assert wallet_balance(user_id=ben.pk) == 900
    assert pot_balance(table_ref=str(table.pk)) == 200
    assert not SeekPlayer.objects.filter(active=True).exists()
    assert_sound()


def test_a_cancelled_stake_seek_refunds_every_entry_once(make_user):
    people = [funded(make_user, n) for n in ("ana", "ben", "cy")]
    seek = seek_open(user_id=people[0].pk, pool_key="draw-4p", stake=250)
    seek_join(user_id=people[1].pk, seek_id=seek.pk)
    seek_join(user_id=people[2].pk, seek_id=seek.pk)
    with pytest.raises(MatchError) as info:
        seek_start(user_id=people[0].pk, seek_id=seek.pk)
    assert info.value.code == "seek_waiting"
    # A joiner leaving has their entry back at once.
    seek_leave(user_id=people[2].pk)
    assert wallet_balance(user_id=people[2].pk) == 1000
    seek_leave(user_id=people[0].pk)
    assert Seek.objects.get(pk=seek.pk).status == "cancelled"
    row = StakeTable.objects.get(pk=seek.stake_table_id)
    assert row.state == "cancelled"
    assert [wallet_balance(user_id=p.pk) for p in people] == [1000] * 3
    # Nothing more comes back however often it is asked.
    with pytest.raises(MatchError):
        seek_leave(user_id=people[0].pk)
    assert not seek_abandon(user_id=people[0].pk)
    assert seeks_expire_abandoned() == 0
    assert [wallet_balance(user_id=p.pk) for p in people] == [1000] * 3
    assert_sound()


def test_a_stake_table_cancelled_at_its_fill_deadline_closes_its_seek(make_user):
    from matchmaking.stakes.services import stake_cancel

    ana, ben = funded(make_user, "ana"), funded(make_user, "ben")
    seek = seek_open(user_id=ana.pk, pool_key="draw-4p", stake=100)
    seek_join(user_id=ben.pk, seek_id=seek.pk)
    stake_cancel(table_id=seek.stake_table_id, reason="unfilled")
    assert seeks_list(user_id=ben.pk) == []
    assert seeks_expire_abandoned() == 0  # followed, not expired by this sweep
    seek.refresh_from_db()
    assert seek.status == "expired"
    assert not SeekPlayer.objects.filter(active=True).exists()
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 1000
    assert_sound()


def test_stake_refusals_change_nothing(make_user):
    ana, poor = funded(make_user, "ana"), funded(make_user, "poor", 50)
    for kwargs, code in (
        ({"pool_key": "draw-2", "stake": 100}, "bad_stake"),  # no stake tables
        ({"pool_key": "block-2", "stake": 7}, "bad_stake"),
        ({"pool_key": "block-2", "stake": 100, "rated": False}, "bad_stake"),
    ):
        with pytest.raises(MatchError) as info:
            seek_open(user_id=ana.pk, **kwargs)
        assert info.value.code == code and "_" not in info.value.message
    seek = seek_open(user_id=ana.pk, pool_key="block-2", stake=100)
    with pytest.raises(MatchError) as info:
        seek_join(user_id=poor.pk, seek_id=seek.pk)
    assert info.value.code == "not_enough_coins"
    assert wallet_balance(user_id=poor.pk) == 50
    assert not SeekPlayer.objects.filter(user=poor).exists()
    assert Seek.objects.get(pk=seek.pk).status == "open"
    assert Seek.objects.count() == 1 and StakeTable.objects.count() == 1
    assert_sound()
