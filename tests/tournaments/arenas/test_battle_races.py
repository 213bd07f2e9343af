"""A team battle under real concurrency on PostgreSQL: players of two clubs
joining and pairing at once never meet a teammate, and three processes finishing
the battle pay each prize and each club prize once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.services import club_create, club_join
from economy.models import Transaction
from games.models import Seat
from ops.audit import audit_run
from tests.economy.conftest import assert_sound
from tests.support.threads import in_threads
from tests.tournaments.arenas.helpers import finish
from tournaments.arenas.battles import battle_create
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.presence import presence_mark
from tournaments.arenas.services import arena_finish, arena_join, arena_pair

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_racing_joins_never_pair_teammates_and_the_end_pays_once(
    make_user, queued, pushes, settings
):
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 4
    clubs = {}
    for name in ("North", "South"):
        leader = make_user(f"{name.lower()}0")
        club = club_create(
            user=leader, name=name, description="", language="en", open=True
        )
        members = [leader]
        for n in range(1, 4):
            user = make_user(f"{name.lower()}{n}")
            club_join(user=user, slug=club.slug)
            members.append(user)
        clubs[name] = (club, members)
    north, north_members = clubs["North"]
    south, south_members = clubs["South"]
    arena = battle_create(
        user=north_members[0],
        club_slug=north.slug,
        rivals=["South"],
        name="North against South",
        pool_key="draw-2",
        starts_at=timezone.now() + timedelta(minutes=10),
        minutes=60,
        team_size=2,
    )
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.LIVE, starts_at=timezone.now() - timedelta(minutes=1)
    )

    def join_then_pair(user):
        arena_join(arena_id=arena.pk, user=user)
        presence_mark(arena_id=arena.pk, user_id=user.pk)
        arena_pair(arena_id=arena.pk)

    in_threads(join_then_pair, [(u,) for u in north_members + south_members])
    arena_pair(arena_id=arena.pk)
    club_of = dict(
        ArenaPlayer.objects.filter(arena=arena).values_list("user_id", "club_id")
    )
    games = list(ArenaGame.objects.filter(arena=arena))
    assert len(games) == 4
    for game in games:
        a, b = game.user_ids
        assert club_of[a] != club_of[b]
        win = a if club_of[a] == north.pk else b
        finish(game.table_id, {a: 1 if a == win else 2, b: 1 if b == win else 2})
    assert Seat.objects.filter(table__mode="online").count() == 8
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
    )
    done: list[bool] = []
    in_threads(lambda: done.append(arena_finish(arena_id=arena.pk)), [(), (), ()])
    assert sorted(done) == [False, False, True]
    club_prizes = Transaction.objects.filter(
        key__startswith=f"arena:{arena.pk}:", key__endswith=":club"
    )
    assert club_prizes.count() == 2  # North's two counted players
    assert ArenaPlayer.objects.filter(arena=arena, club_prize_coins__gt=0).count() == 2
    assert_sound()
    assert audit_run()["minting"] == []
