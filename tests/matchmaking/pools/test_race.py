"""Real concurrency on PostgreSQL: many searchers, overlapping waves, one seat each."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from games.models import Seat, Table
from matchmaking.models import Search
from matchmaking.pools.services import search_start, wave_run
from tests.support.threads import in_threads

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_forty_searchers_and_racing_waves_fill_twenty_tables(
    make_user, queued, pushes, lobby_frames, no_wave_tasks
):
    users = [make_user(f"racer{i}") for i in range(40)]
    waves: list[int] = []

    def search_then_wave(user_id: int) -> None:
        search_start(user_id=user_id, pool_key="block-2")
        result = wave_run(pool_key="block-2")
        waves.append(int(result.ran))

    in_threads(search_then_wave, [(u.pk,) for u in users])
    # Whoever a racing wave skipped (its lock was held) is seated by the next one.
    while Search.objects.filter(status="waiting").exists():
        assert wave_run(pool_key="block-2").tables
    tables = Table.objects.filter(mode="online")
    assert tables.count() == 20
    per_table = Counter(Seat.objects.values_list("table_id", flat=True))
    assert set(per_table.values()) == {2}
    per_user = Counter(Seat.objects.values_list("user_id", flat=True))
    assert sorted(per_user) == sorted(u.pk for u in users)
    assert set(per_user.values()) == {1}
    assert Search.objects.filter(status="seated").count() == 40
    assert set(tables.values_list("status", flat=True)) == {"playing"}


def test_a_second_search_racing_the_first_is_refused_by_the_database(
    make_user, queued, pushes, lobby_frames, no_wave_tasks
):
    from matchmaking.errors import MatchError

    ana = make_user("ana")
    outcomes: list[str] = []

    def start() -> None:
        try:
            search_start(user_id=ana.pk, pool_key="draw-2")
            outcomes.append("ok")
        except MatchError as err:
            outcomes.append(err.code)

    in_threads(start, [() for _ in range(8)])
    assert sorted(outcomes) == ["already_searching"] * 7 + ["ok"]
    assert Search.objects.filter(user=ana, status="waiting").count() == 1


def test_cancels_and_a_second_wave_racing_a_drain_seat_nobody_twice(
    settings, monkeypatch, queued, pushes, lobby_frames, no_wave_tasks
):
    """A pool drained in many small batches while players cancel and another wave
    tries to run: no player is seated twice or after their cancel, and the two
    waves never hold the pool at once."""
    import random
    import time
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from matchmaking.errors import MatchError
    from matchmaking.pools import services
    from matchmaking.pools.services import search_cancel

    settings.MATCHMAKING_SEAT_BATCH_TABLES = 3
    User = get_user_model()
    User.objects.bulk_create([User(username=f"r{i}", password="!") for i in range(240)])
    ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
    now = timezone.now()
    Search.objects.bulk_create(
        [
            Search(
                user_id=uid,
                pool="draw-2",
                rating=1500 + (i * 37) % 400,
                started_at=now - timedelta(seconds=i % 9),
                seen_at=now,
            )
            for i, uid in enumerate(ids)
        ]
    )
    # When each wave held the pool: from its claim's commit to its release.
    held: list[list[float]] = []
    claim, release = services._wave_claim, services._wave_release

    def claimed(*args):
        runner = claim(*args)
        if runner is not None:
            held.append([time.monotonic(), 0.0])
            draining.set()
        return runner

    def released(*args):
        held[-1][1] = time.monotonic()
        release(*args)

    monkeypatch.setattr(services, "_wave_claim", claimed)
    monkeypatch.setattr(services, "_wave_release", released)
    leaving = random.Random(5).sample(ids, 60)
    cancelled: list[int] = []
    too_late: list[int] = []
    draining, done = threading.Event(), threading.Event()

    def drain() -> None:
        assert wave_run(pool_key="draw-2").ran
        done.set()

    def second_waves() -> None:
        draining.wait(timeout=60)  # the drain holds the pool: try to run meanwhile
        while not done.is_set():
            wave_run(pool_key="draw-2")

    def cancels(users: list[int]) -> None:
        for user_id in users:
            time.sleep(0.005)  # spread over the drain's batches
            try:
                search_cancel(user_id=user_id)
                cancelled.append(user_id)
            except MatchError as err:
                assert err.code == "seated"
                too_late.append(user_id)

    in_threads(
        lambda job, *args: job(*args),
        [(drain,), (second_waves,), (cancels, leaving[:30]), (cancels, leaving[30:])],
    )
    assert cancelled and too_late  # both sides of the race were met
    held.sort()
    assert all(a[1] < b[0] for a, b in zip(held, held[1:], strict=False)), held
    per_user = Counter(
        Seat.objects.exclude(user=None).values_list("user_id", flat=True)
    )
    assert set(per_user.values()) == {1}
    assert not set(cancelled) & set(per_user)
    assert set(too_late) <= set(per_user)
    searches = dict(Search.objects.values_list("user_id", "status"))
    assert {u for u, s in searches.items() if s == "seated"} == set(per_user)
    assert {u for u, s in searches.items() if s == "cancelled"} == set(cancelled)
    seated = dict(
        Search.objects.filter(status="seated").values_list("user_id", "seated_table_id")
    )
    assert seated == dict(Seat.objects.exclude(user=None).values_list("user", "table"))
