"""The scheduler: each pool's slots, each arena created once however often and
however concurrently it runs; the tick starts arenas on time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.arenas.models import Arena
from tournaments.arenas.schedule import slots_between
from tournaments.arenas.services import arenas_schedule, arenas_tick

NOON = datetime(2026, 12, 3, 12, 10, tzinfo=UTC)
ENTRIES = [
    {"pool": "draw-2", "every": "hourly", "minute": 0, "minutes": 45},
    {"pool": "draw-4p", "every": "daily", "hour": 20, "minute": 30, "minutes": 90},
]


def test_slots_hourly_and_daily():
    slots = slots_between(ENTRIES, start=NOON, end=NOON + timedelta(hours=24))
    hourly = [s for s in slots if s.pool == "draw-2"]
    daily = [s for s in slots if s.pool == "draw-4p"]
    # 12:00 is still running at 12:10; then 13:00 … 12:00 the next day.
    assert hourly[0].starts_at == NOON.replace(minute=0)
    assert len(hourly) == 25
    assert [s.starts_at for s in daily] == [NOON.replace(hour=20, minute=30)]
    assert daily[0].ends_at - daily[0].starts_at == timedelta(minutes=90)
    assert len({s.key for s in slots}) == len(slots)
    assert hourly[0].key == "draw-2@2026-12-03T12:00"


def test_a_finished_slot_is_not_scheduled():
    slots = slots_between(
        ENTRIES, start=NOON.replace(minute=50), end=NOON.replace(minute=55)
    )
    assert slots == []


@pytest.mark.django_db
def test_scheduling_twice_creates_each_arena_once(settings):
    settings.TOURNAMENTS_ARENA_SCHEDULE = ENTRIES
    settings.TOURNAMENTS_ARENA_AHEAD_HOURS = 24
    made = arenas_schedule(now=NOON)
    assert made == 26
    assert arenas_schedule(now=NOON) == 0
    assert arenas_schedule(now=NOON + timedelta(hours=1)) == 1  # the next hour's
    assert Arena.objects.count() == 27
    arena = Arena.objects.get(schedule_key="draw-4p@2026-12-03T20:30")
    assert (arena.variant, arena.seats, arena.partnership) == ("draw", 4, True)


@pytest.mark.django_db
def test_the_tick_starts_and_ends_arenas(settings):
    settings.TOURNAMENTS_ARENA_SCHEDULE = ENTRIES[:1]
    arenas_schedule(now=NOON)
    arenas_tick(now=NOON)
    running = Arena.objects.get(schedule_key="draw-2@2026-12-03T12:00")
    assert running.status == Arena.Status.LIVE
    assert Arena.objects.filter(status=Arena.Status.SCHEDULED).count() == 24
    arenas_tick(now=NOON.replace(minute=46))
    running.refresh_from_db()
    assert running.status == Arena.Status.FINISHED  # nobody played: nothing to wait for
