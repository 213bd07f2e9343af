"""Real concurrency on PostgreSQL: two schedulers, racing joins and pairings, two
processes finishing one arena."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from economy.models import Transaction
from games.models import Seat, Table
from tests.economy.conftest import assert_sound
from tests.support.threads import in_threads
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.presence import presence_mark
from tournaments.arenas.services import (
    arena_finish,
    arena_join,
    arena_on_table_finished,
    arena_pair,
    arenas_schedule,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_schedulers_at_once_create_each_arena_once(settings):
    settings.TOURNAMENTS_ARENA_AHEAD_HOURS = 24
    now = datetime(2026, 12, 3, 12, 10, tzinfo=UTC)
    made: list[int] = []
    in_threads(lambda: made.append(arenas_schedule(now=now)), [(), (), (), ()])
    keys = list(Arena.objects.values_list("schedule_key", flat=True))
    assert len(keys) == len(set(keys)) > 0
    assert sum(made) == len(keys)  # each slot counted by the one run that made it


def test_racing_joins_and_pairings_seat_each_player_once(
    make_user, make_arena, queued, pushes
):
    arena = make_arena()
    users = [make_user(f"arena{i}") for i in range(16)]

    def join_then_pair(user):
        arena_join(arena_id=arena.pk, user=user)
        presence_mark(arena_id=arena.pk, user_id=user.pk)
        arena_pair(arena_id=arena.pk)

    in_threads(join_then_pair, [(u,) for u in users])
    arena_pair(arena_id=arena.pk)
    per_user = Counter(Seat.objects.values_list("user_id", flat=True))
    assert set(per_user.values()) == {1}
    assert len(per_user) == 16
    assert Table.objects.filter(mode="online").count() == 8
    assert ArenaPlayer.objects.filter(arena=arena, table_id__isnull=True).count() == 0


def test_two_processes_finishing_an_arena_pay_each_prize_once(
    make_user, make_arena, queued, pushes
):
    from games.finish import FinishNotice
    from games.signals import SeatResult

    arena = make_arena()
    users = [make_user(f"prize{i}") for i in range(4)]
    for u in users:
        arena_join(arena_id=arena.pk, user=u)
        presence_mark(arena_id=arena.pk, user_id=u.pk)
    for table_id in arena_pair(arena_id=arena.pk):
        ids = ArenaGame.objects.get(table_id=table_id).user_ids
        Table.objects.filter(pk=table_id).update(status="finished")
        arena_on_table_finished(
            FinishNotice(
                table_id=table_id,
                mode="online",
                variant="draw",
                simulated=False,
                results=[
                    SeatResult(i, u, "", False, None, i + 1, 0, False)
                    for i, u in enumerate(ids)
                ],
            )
        )
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
    )
    done: list[bool] = []
    in_threads(lambda: done.append(arena_finish(arena_id=arena.pk)), [(), (), ()])
    assert sorted(done) == [False, False, True]
    prizes = Transaction.objects.filter(key__startswith=f"arena:{arena.pk}:")
    # Two winners share rank 1 (half the field is paid); the losers scored nothing.
    assert prizes.count() == 2
    assert ArenaPlayer.objects.filter(arena=arena, prize_coins__gt=0).count() == 2
    assert_sound()
