"""A big pool drains in one wave, seated batch by batch (on SQLite and PostgreSQL).

The racing cases, with real threads on PostgreSQL, are in ``test_race.py``.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Seat
from matchmaking.models import PoolWave, Search
from matchmaking.pools import services
from matchmaking.pools.conduct import block_add
from matchmaking.pools.config import gap_setting
from matchmaking.pools.services import search_cancel, wave_run
from matchmaking.pools.waves import wave_groups

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def waiting_players(n: int, pool: str, *, seconds: float = 5.0) -> list[int]:
    """``n`` searches of ``pool`` with spread ratings and waits; their user ids."""
    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"drain{pool}{i}", password="!") for i in range(n)]
    )
    ids = list(
        User.objects.filter(username__startswith=f"drain{pool}")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    now = timezone.now()
    Search.objects.bulk_create(
        [
            Search(
                user_id=uid,
                pool=pool,
                rating=1500 + (i * 37) % 400,
                started_at=now - timedelta(seconds=(i * 7) % 11 * seconds / 10),
                seen_at=now,
            )
            for i, uid in enumerate(ids)
        ]
    )
    return ids


def batches_counted(monkeypatch) -> list[int]:
    """The size of each seating batch (each its own transaction) of the waves."""
    sizes: list[int] = []
    seat = services._batch_seat

    def counted(pool, batch, now, runner):
        sizes.append(len(batch))
        return seat(pool, batch, now, runner)

    monkeypatch.setattr(services, "_batch_seat", counted)
    return sizes


def seats_by_user() -> Counter[int]:
    return Counter(Seat.objects.exclude(user=None).values_list("user_id", flat=True))


def test_a_big_pool_is_seated_in_one_wave_batch_by_batch_closest_first(
    make_user,
    settings,
    monkeypatch,
    lobby_frames,
    no_wave_tasks,
    django_capture_on_commit_callbacks,
):
    settings.MATCHMAKING_SEAT_BATCH_TABLES = 7
    ids = waiting_players(300, "draw-2")
    # Blocks between players of close ratings, so that the grouping must avoid them.
    by_rating = list(
        Search.objects.order_by("rating", "pk").values_list("user_id", flat=True)
    )
    User = get_user_model()
    blocks = set()
    for a, b in list(zip(by_rating, by_rating[1:], strict=False))[::9]:
        block_add(blocker_id=a, blocked_username=User.objects.get(pk=b).username)
        blocks.add(frozenset((a, b)))
    now = timezone.now()
    expected = wave_groups(
        services._waiting("draw-2", now),
        seats=2,
        gap=gap_setting(),
        blocked=services._blocked_pairs("draw-2"),
    )
    assert len(expected) >= 140
    sizes = batches_counted(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        result = wave_run(pool_key="draw-2", now=now)
    assert result.ran and not result.more and no_wave_tasks == []
    # Every group of the whole grouping, in its order (closest first), 7 a batch.
    seated_groups = [
        frozenset(Seat.objects.filter(table_id=t).values_list("user_id", flat=True))
        for t in result.tables
    ]
    assert seated_groups == [frozenset(w.user_id for w in g) for g in expected]
    assert sizes == [7] * (len(expected) // 7) + (
        [len(expected) % 7] if len(expected) % 7 else []
    )
    assert not any(group in blocks or len(group) != 2 for group in seated_groups)
    # Each player at most once; each seated search names its player's table.
    per_user = seats_by_user()
    assert set(per_user.values()) == {1} and set(per_user) <= set(ids)
    seated = dict(
        Search.objects.filter(status="seated").values_list("user_id", "seated_table_id")
    )
    assert seated == result.seated
    assert seated == dict(Seat.objects.exclude(user=None).values_list("user", "table"))
    left = Search.objects.filter(status="waiting").count()
    assert left == 300 - 2 * len(expected)
    # Each seated player hears of their table once; the counts go out once.
    heard = [(g, m) for g, m in lobby_frames if m["type"] == "lobby.seated"]
    assert sorted(g for g, _ in heard) == sorted(f"lobby.user.{u}" for u in seated)
    assert all(m["url"] == f"/tables/{m['table']}/" for _, m in heard)
    assert [m["type"] for _, m in lobby_frames].count("lobby.counts") == 1
    # The pool is free again, and nobody is left to group.
    assert PoolWave.objects.get(pk="draw-2").running_until is None
    assert wave_run(pool_key="draw-2", now=now).tables == []


def test_overdue_lone_players_are_all_backfilled_after_the_groups(
    make_user, settings, monkeypatch
):
    settings.MATCHMAKING_SEAT_BATCH_TABLES = 2
    settings.MATCHMAKING_BACKFILL_SECONDS = 15
    players = [make_user(f"far{i}") for i in range(5)]
    now = timezone.now()
    Search.objects.bulk_create(
        [
            Search(
                user=p,
                pool="draw-4p",
                rating=500 + 700 * i,  # too far apart to ever share a table
                started_at=now - timedelta(seconds=20 + i),
                seen_at=now,
            )
            for i, p in enumerate(players)
        ]
    )
    sizes = batches_counted(monkeypatch)
    result = wave_run(pool_key="draw-4p", now=now)
    assert sizes == [2, 2, 1]
    assert result.backfilled == result.tables and len(result.tables) == 5
    # The longest wait first.
    assert [result.seated[p.pk] for p in reversed(players)] == result.tables
    assert Seat.objects.filter(simulated=True).count() == 15


def test_a_group_whose_player_left_before_its_batch_stays_and_a_wave_follows(
    make_user, settings, monkeypatch, no_wave_tasks
):
    settings.MATCHMAKING_SEAT_BATCH_TABLES = 3
    waiting_players(20, "draw-2")
    seat = services._batch_seat
    gone: list[int] = []

    def cancel_then_seat(pool, batch, now, runner):
        if not gone:  # a cancel commits between the read and the first batch
            gone.append(batch[1][0].user_id)
            search_cancel(user_id=gone[0])
        return seat(pool, batch, now, runner)

    monkeypatch.setattr(services, "_batch_seat", cancel_then_seat)
    result = wave_run(pool_key="draw-2")
    assert len(result.tables) == 9
    assert gone[0] not in seats_by_user()
    assert Search.objects.get(user_id=gone[0]).status == "cancelled"
    # The partner still waits, and another wave is queued at once for them.
    left = Search.objects.get(status="waiting")
    assert left.user_id not in seats_by_user()
    assert result.more and no_wave_tasks == ["draw-2"]


def test_a_second_wave_of_a_claimed_pool_returns_at_once(make_user):
    waiting_players(4, "draw-2")
    PoolWave.objects.create(
        pool="draw-2",
        runner="other",
        running_until=timezone.now() + timedelta(seconds=10),
    )
    assert wave_run(pool_key="draw-2").ran is False
    assert Search.objects.filter(status="waiting").count() == 4
    assert PoolWave.objects.get(pk="draw-2").runner == "other"


def test_the_claim_of_a_wave_whose_worker_died_runs_out(make_user):
    waiting_players(4, "draw-2")
    PoolWave.objects.create(
        pool="draw-2",
        runner="dead",
        running_until=timezone.now() - timedelta(seconds=1),
    )
    result = wave_run(pool_key="draw-2")
    assert result.ran and len(result.tables) == 2
    wave = PoolWave.objects.get(pk="draw-2")
    assert (wave.runner, wave.running_until, wave.last_tables) == ("", None, 2)


def test_a_wave_that_lost_its_pool_stops_seating(make_user, settings, monkeypatch):
    settings.MATCHMAKING_SEAT_BATCH_TABLES = 2
    waiting_players(12, "draw-2")
    seat = services._batch_seat
    calls: list[int] = []

    def taken_over(pool, batch, now, runner):
        calls.append(len(batch))
        if len(calls) == 2:  # its lease ran out and another wave took the pool
            PoolWave.objects.filter(pk=pool.key).update(runner="other")
        return seat(pool, batch, now, runner)

    monkeypatch.setattr(services, "_batch_seat", taken_over)
    result = wave_run(pool_key="draw-2")
    assert calls == [2, 2] and len(result.tables) == 2
    assert Search.objects.filter(status="seated").count() == 4
    assert PoolWave.objects.get(pk="draw-2").runner == "other"  # not released
