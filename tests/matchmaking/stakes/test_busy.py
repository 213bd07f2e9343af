"""A stake seat and an online search exclude each other, both ways."""

from __future__ import annotations

import pytest

from economy.selectors import wallet_balance
from matchmaking.errors import MatchError, StakeError
from matchmaking.models import Search, StakeTable
from matchmaking.pools.services import search_cancel, search_start
from matchmaking.stakes.services import stake_sit
from tests.matchmaking.stakes.helpers import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("stake_quiet")]


def test_a_player_searching_an_online_pool_cannot_sit_at_a_stake_table(funded):
    ana = funded()
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
def test_a_player_holding_a_stake_seat_cannot_search_an_online_pool(funded, full):
    ana, ben = funded(), funded()
    stake_sit(user=ana, stake=100, shape="block-2")
    if full:
        stake_sit(user=ben, stake=100, shape="block-2")
    with pytest.raises(MatchError) as err:
        search_start(user_id=ana.pk, pool_key="draw-2")
    assert err.value.code == "seated"
    assert err.value.message and "'" not in err.value.message
    assert not Search.objects.filter(user_id=ana.pk).exists()
