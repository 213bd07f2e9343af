"""A stake seat and an online search exclude each other, both ways."""

from __future__ import annotations

import pytest

from economy.selectors import wallet_balance
from matchmaking import stakes
from matchmaking.errors import MatchError
from matchmaking.models import Search, StakeTable
from matchmaking.services import search_cancel, search_start
from matchmaking.stake_errors import StakeError
from matchmaking.stakes import stake_sit
from tests.matchmaking.stake_helpers import fund, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(monkeypatch, queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer: timed jobs and frames are recorded."""
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


@pytest.fixture
def rich(make_user):
    def make(coins: int = 1000):
        user = make_user()
        fund(user.pk, coins)
        return user

    return make


def test_a_player_searching_an_online_pool_cannot_sit_at_a_stake_table(rich):
    ana = rich()
    search_start(user_id=ana.pk, pool_key="draw-2")
    before = snapshot()
    with pytest.raises(StakeError) as err:
        stake_sit(user=ana, stake=100, shape="block-2")
    assert err.value.code == "busy_elsewhere"
    assert "online table" in err.value.message and "'" not in err.value.message
    assert snapshot() == before
    assert not StakeTable.objects.exists()
    # Once the search is cancelled the same player may sit.
    search_cancel(user_id=ana.pk)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    assert wallet_balance(user_id=ana.pk) == 900 and row.seats_taken == 1


@pytest.mark.parametrize("full", [False, True], ids=["open", "started"])
def test_a_player_holding_a_stake_seat_cannot_search_an_online_pool(rich, full):
    ana, ben = rich(), rich()
    stake_sit(user=ana, stake=100, shape="block-2")
    if full:
        stake_sit(user=ben, stake=100, shape="block-2")
    with pytest.raises(MatchError) as err:
        search_start(user_id=ana.pk, pool_key="draw-2")
    assert err.value.code == "seated"
    assert err.value.message and "'" not in err.value.message
    assert not Search.objects.filter(user_id=ana.pk).exists()
