"""Real concurrency on PostgreSQL: many searchers, overlapping waves, one seat each."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from games.models import Seat, Table
from matchmaking.models import Search
from matchmaking.pools.services import search_start, wave_run

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def in_threads(target, args_list):
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(args_list))

    def run(*args):
        try:
            barrier.wait()
            target(*args)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=a) for a in args_list]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors


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
