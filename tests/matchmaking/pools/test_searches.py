"""Searches and waves through the services: seating, backfill, blocks, bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Seat, Table
from games.names import seat_display_name
from games.services import seat_leave
from matchmaking.errors import MatchError
from matchmaking.models import Search
from matchmaking.pools.conduct import block_add
from matchmaking.pools.selectors import lobby_state, search_frame
from matchmaking.pools.services import (
    search_cancel,
    search_start,
    search_touch,
    wave_run,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def refused(code: str, func, **kwargs) -> MatchError:
    before = list(Search.objects.values_list("pk", "status"))
    with pytest.raises(MatchError) as info:
        func(**kwargs)
    assert info.value.code == code
    assert "Search" not in info.value.message and "_" not in info.value.message
    assert list(Search.objects.values_list("pk", "status")) == before
    return info.value


def test_two_searchers_are_seated_together_and_the_table_starts(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    search_start(user_id=ana.pk, pool_key="draw-2")
    search_start(user_id=ben.pk, pool_key="draw-2")
    result = wave_run(pool_key="draw-2")
    assert result.ran and len(result.tables) == 1 and not result.backfilled
    table = Table.objects.get(pk=result.tables[0])
    assert table.mode == "online" and table.status == "playing"
    assert table.clock_seconds == 30
    assert set(table.seats.values_list("user_id", flat=True)) == {ana.pk, ben.pk}
    assert result.seated == {ana.pk: table.pk, ben.pk: table.pk}
    assert set(Search.objects.values_list("status", flat=True)) == {"seated"}
    # Nothing is left for a second wave.
    assert wave_run(pool_key="draw-2").tables == []


def test_a_partnership_pool_pairs_strong_with_weak(make_user):
    players = [make_user(f"p{i}") for i in range(4)]
    for i, p in enumerate(players):
        search_start(user_id=p.pk, pool_key="draw-4p")
        Search.objects.filter(user=p).update(rating=1500 + 10 * i)
    result = wave_run(pool_key="draw-4p")
    table = Table.objects.get(pk=result.tables[0])
    teams = {s.user.username: s.team for s in table.seats.all()}
    assert teams["p0"] == teams["p3"] != teams["p1"] == teams["p2"]


def test_a_lone_searcher_is_backfilled_after_the_backfill_time(make_user, settings):
    settings.MATCHMAKING_BACKFILL_SECONDS = 15
    ana = make_user("ana")
    search = search_start(user_id=ana.pk, pool_key="draw-4p")
    assert wave_run(pool_key="draw-4p").tables == []
    later = search.started_at + timedelta(seconds=16)
    Search.objects.filter(pk=search.pk).update(seen_at=later)
    result = wave_run(pool_key="draw-4p", now=later)
    assert result.backfilled == result.tables and len(result.tables) == 1
    seats = list(Seat.objects.filter(table_id=result.tables[0]))
    bots = [s for s in seats if s.user_id is None]
    assert len(bots) == 3
    assert all(s.simulated and s.bot_level in ("medium", "hard") for s in bots)
    assert all(s.name for s in bots)
    shown = [seat_display_name(s) for s in bots]
    assert shown == [f"{s.name} · computer" for s in bots]
    frame = lobby_state(user_id=ana.pk)
    live = next(t for t in frame["tables"] if t["id"] == result.tables[0])
    assert sum(s["computer"] for s in live["seats"]) == 3
    assert {s.name for s in bots} <= {s["name"] for s in live["seats"]}


def test_blocked_players_are_never_seated_together(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    block_add(blocker_id=ben.pk, blocked_username="ana")
    search_start(user_id=ana.pk, pool_key="draw-2")
    search_start(user_id=ben.pk, pool_key="draw-2")
    assert wave_run(pool_key="draw-2").tables == []
    search_start(user_id=cy.pk, pool_key="draw-2")
    result = wave_run(pool_key="draw-2")
    assert len(result.tables) == 1
    assert set(result.seated) in ({ana.pk, cy.pk}, {ben.pk, cy.pk})


def test_bad_requests_are_refused_and_change_nothing(make_user):
    ana = make_user("ana")
    refused("unknown_pool", search_start, user_id=ana.pk, pool_key="chess-2")
    refused("unknown_pool", search_start, user_id=ana.pk, pool_key={"x": 1})
    refused("not_searching", search_cancel, user_id=ana.pk)
    search_start(user_id=ana.pk, pool_key="draw-2")
    refused("already_searching", search_start, user_id=ana.pk, pool_key="block-2")
    ben = make_user("ben")
    search_start(user_id=ben.pk, pool_key="draw-2")
    wave_run(pool_key="draw-2")
    refused("seated", search_cancel, user_id=ana.pk)
    refused("seated", search_start, user_id=ana.pk, pool_key="draw-2")


def test_a_forfeited_seat_may_search_again(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    search_start(user_id=ana.pk, pool_key="draw-2")
    search_start(user_id=ben.pk, pool_key="draw-2")
    table_id = wave_run(pool_key="draw-2").tables[0]
    seat_leave(table_id=table_id, user=ana)
    assert search_start(user_id=ana.pk, pool_key="block-2").status == "waiting"


def test_cancel_ends_the_search(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    search_start(user_id=ana.pk, pool_key="draw-2")
    search_cancel(user_id=ana.pk)
    search_start(user_id=ben.pk, pool_key="draw-2")
    assert wave_run(pool_key="draw-2").tables == []
    assert search_frame(user_id=ana.pk) is None


def test_a_search_without_a_socket_for_a_minute_is_dropped(make_user, settings):
    settings.MATCHMAKING_BACKFILL_SECONDS = 600
    ana = make_user("ana")
    search = search_start(user_id=ana.pk, pool_key="spider-2")
    search_touch(user_id=ana.pk)
    now = timezone.now()
    wave_run(pool_key="spider-2", now=now + timedelta(seconds=50))
    assert Search.objects.get(pk=search.pk).status == "waiting"
    wave_run(pool_key="spider-2", now=now + timedelta(seconds=61))
    assert Search.objects.get(pk=search.pk).status == "dropped"


def test_the_search_frame_shows_the_wait_and_a_widening_range(make_user):
    ana = make_user("ana")
    search = search_start(user_id=ana.pk, pool_key="draw-2")
    first = search_frame(user_id=ana.pk, now=search.started_at)
    later = search_frame(user_id=ana.pk, now=search.started_at + timedelta(seconds=10))
    assert first["range"] == [1400, 1600]
    assert later["waited"] == 10 and later["range"] == [1200, 1800]


def test_a_crowded_pool_queues_a_wave_at_once(
    make_user, no_wave_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(3):
            search_start(user_id=make_user(f"p{i}").pk, pool_key="draw-2")
    assert no_wave_tasks == []  # one table's worth waits for the beat's wave
    with django_capture_on_commit_callbacks(execute=True):
        search_start(user_id=make_user("p3").pk, pool_key="draw-2")
    assert no_wave_tasks == ["draw-2"]  # two tables' worth: a wave at once


def test_a_wave_seats_its_tables_in_the_same_statements_however_many(make_user):
    """The tables of a seating batch (here the whole wave) are written together: no
    statement per table, seat or player."""

    def wave_statements(players: int, pool: str) -> tuple[int, int]:
        for _ in range(players):
            search_start(user_id=make_user().pk, pool_key=pool)
        with CaptureQueriesContext(connection) as captured:
            result = wave_run(pool_key=pool)
        return len(result.tables), len(captured)

    tables, one = wave_statements(2, "draw-2")
    assert tables == 1
    assert wave_statements(6, "draw-2") == (3, one)
    assert wave_statements(4, "draw-4p") == (1, one)
