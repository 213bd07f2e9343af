"""Speeds: a search carries its turn clock; a wave groups one pool AND one speed,
and the table runs the speed's clock."""

from __future__ import annotations

import pytest

from games.models import Table
from matchmaking.errors import MatchError
from matchmaking.models import Search
from matchmaking.pools.selectors import lobby_state, search_frame
from matchmaking.pools.services import search_start, wave_run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def test_find_defaults_to_slow_and_refuses_an_unknown_speed(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    assert search_start(user_id=ana.pk, pool_key="draw-2").speed == "slow"
    assert search_frame(user_id=ana.pk)["speed"] == "slow"
    with pytest.raises(MatchError) as info:
        search_start(user_id=ben.pk, pool_key="draw-2", speed="blitz")
    assert info.value.code == "unknown_speed" and "_" not in info.value.message
    assert Search.objects.filter(user=ben).count() == 0


def test_a_wave_never_mixes_speeds_and_seats_each_with_its_clock(make_user):
    fast = [make_user(f"f{i}") for i in range(2)]
    slow = [make_user(f"s{i}") for i in range(2)]
    lone = [make_user("fast_alone"), make_user("slow_alone")]
    for u in fast:
        search_start(user_id=u.pk, pool_key="draw-2", speed="fast")
    for u in slow:
        search_start(user_id=u.pk, pool_key="draw-2", speed="slow")
    search_start(user_id=lone[0].pk, pool_key="draw-2", speed="fast")
    result = wave_run(pool_key="draw-2")
    assert len(result.tables) == 2 and not result.backfilled
    by_clock = {}
    for table in Table.objects.filter(pk__in=result.tables):
        by_clock[table.clock_seconds] = set(
            table.seats.values_list("user_id", flat=True)
        )
        assert table.bank_seconds == (60 if table.clock_seconds == 10 else 120)
    assert by_clock == {10: {u.pk for u in fast}, 30: {u.pk for u in slow}}
    # A fast and a slow player alone never sit together.
    search_start(user_id=lone[1].pk, pool_key="draw-2", speed="slow")
    assert wave_run(pool_key="draw-2").tables == []
    assert Search.objects.filter(status="waiting").count() == 2


def test_the_lobby_shows_each_pools_speeds(make_user):
    ana = make_user("ana")
    pools = lobby_state(user_id=ana.pk)["pools"]
    assert pools and all(
        p["speeds"]
        == [
            {"key": "fast", "clock": 10, "bank": 60},
            {"key": "slow", "clock": 30, "bank": 120},
        ]
        and p["clock"] == 30
        for p in pools
    )


def test_a_rematch_keeps_the_finished_tables_speed(
    make_user, django_capture_on_commit_callbacks
):
    from matchmaking.pools.rematch import rematch_offer
    from tests.matchmaking.test_competitive_pages import finished_online

    table, ana, ben = finished_online(make_user, django_capture_on_commit_callbacks)
    Search.objects.filter(seated_table_id=table.pk).update(speed="fast")
    rematch_offer(user_id=ana.pk, table_id=table.pk)
    state = rematch_offer(user_id=ben.pk, table_id=table.pk)
    new = Table.objects.exclude(pk=table.pk).get(mode="online")
    assert state and new.clock_seconds == 10 and new.bank_seconds == 60
    assert set(
        Search.objects.filter(seated_table_id=new.pk).values_list("speed", flat=True)
    ) == {"fast"}
