"""Accounts seen from one address or device (RULES.md §5) may both play an arena, but
the pairing never seats them at one table."""

from __future__ import annotations

from itertools import combinations

from accounts.sightings import sightings_record
from games.models import Seat
from tests.tournaments.arenas.test_pairing import free
from tournaments.arenas.models import ArenaPlayer
from tournaments.arenas.pairing import pairing_round
from tournaments.arenas.services import arena_pair


def test_players_kept_apart_are_never_paired_even_when_closest():
    players = [free(1, score=10), free(2, score=10), free(3, score=0), free(4, score=0)]
    assert sorted(map(sorted, pairing_round(players, seats=2).tables)) == [
        [1, 2],
        [3, 4],
    ]
    result = pairing_round(players, seats=2, apart=[(1, 2)])
    assert sorted(map(sorted, result.tables)) == [[1, 3], [2, 4]]


def test_in_the_second_pass_too_and_a_pair_with_nobody_else_waits():
    # 1 and 2 just met: the strict pass seats nobody, the second pass would, but
    # they are kept apart.
    result = pairing_round(
        [free(1, last=[2]), free(2, last=[1])], seats=2, apart=[(2, 1)]
    )
    assert result.tables == []
    assert result.waiting == [1, 2]


def test_a_four_seat_table_holds_no_two_of_a_linked_family():
    players = [free(i, score=10 if i < 5 else 0) for i in range(1, 13)]
    apart = list(combinations([1, 2, 3], 2))
    assert any(
        len({1, 2, 3}.intersection(t)) > 1
        for t in pairing_round(players, seats=4, partnership=True).tables
    )
    result = pairing_round(players, seats=4, partnership=True, apart=apart)
    assert len(result.tables) == 3
    for table in result.tables:
        assert len({1, 2, 3}.intersection(table)) <= 1


def test_the_arena_pass_keeps_linked_accounts_apart(
    db, make_arena, joined, queued, pushes, django_capture_on_commit_callbacks
):
    arena = make_arena()
    users = joined(arena, 4)
    mum, kid = users[0], users[1]
    for user in (mum, kid):
        sightings_record(user_id=user.pk, address="203.0.113.60", device="")
    with django_capture_on_commit_callbacks(execute=True):
        tables = arena_pair(arena_id=arena.pk)
    assert len(tables) == 2  # both play
    assert ArenaPlayer.objects.filter(arena=arena, table_id__isnull=False).count() == 4
    for table in tables:
        seated = set(
            Seat.objects.filter(table_id=table).values_list("user_id", flat=True)
        )
        assert not {mum.pk, kid.pk} <= seated
