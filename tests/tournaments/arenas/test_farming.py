"""Farming an arena with several accounts of one person, on PostgreSQL with real
games, sockets and threads: a leaver's or a stand-in's seat earns no prize and no
rank, nothing is paid below the minimum field, and three accounts earn no more per
hour than one honest player playing the same games (RULES.md §5)."""

from __future__ import annotations

import random
from datetime import timedelta
from functools import partial
from io import StringIO

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db.models import F, Sum
from django.db.models.functions import Least
from django.utils import timezone

from economy.models import Entry, Transaction, XpAward
from economy.rewards import reward_base
from games.finish import consequence, consequence_register, finish_step_apply
from games.models import Seat
from games.services import seat_leave
from matchmaking.pools.models import Cooldown
from ops.audit import audit_run
from tests.games.test_table_socket import Player
from tests.support.tables import drive
from tests.support.threads import in_threads
from tests.tournaments.arenas.helpers import player
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.presence import presence_mark
from tournaments.arenas.services import (
    arena_finish,
    arena_join,
    arena_pair,
    arenas_tick,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def clean_audit() -> None:
    found = {part: lines for part, lines in audit_run().items() if lines}
    assert found == {}


def end(arena: Arena) -> None:
    """The clock ran out (an arena started seconds ago starts a moment earlier)."""
    now = timezone.now()
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING,
        starts_at=Least(F("starts_at"), now - timedelta(seconds=2)),
        ends_at=now - timedelta(seconds=1),
    )
    assert arena_finish(arena_id=arena.pk)


def positions(table_id: int) -> dict[int, int]:
    return dict(
        Seat.objects.filter(table_id=table_id).values_list("user_id", "position")
    )


def minted(users) -> tuple[int, int]:
    """Coins and XP the mint paid these players (table rewards and prizes)."""
    ids = [u.pk for u in users]
    coins = Entry.objects.filter(
        account__user_id__in=ids, transaction__kind=Transaction.Kind.REWARD
    ).aggregate(n=Sum("amount"))["n"]
    xp = XpAward.objects.filter(user_id__in=ids).aggregate(n=Sum("amount"))["n"]
    return coins or 0, xp or 0


def review_setup(make_user):
    """The review's steps: ``manage.py arena_create block-2 --in 0 --minutes 5``,
    two accounts of one person join with the page open, and are paired."""
    out = StringIO()
    call_command("arena_create", "block-2", "--in", "0", "--minutes", "5", stdout=out)
    arena_id = int(out.getvalue())
    arenas_tick()
    ana, alt = make_user("ana"), make_user("ana_alt")
    for user in (ana, alt):
        arena_join(arena_id=arena_id, user=user)
        presence_mark(arena_id=arena_id, user_id=user.pk)
    (table_id,) = arena_pair(arena_id=arena_id)
    return Arena.objects.get(pk=arena_id), table_id, ana, alt


async def test_the_reviews_leaver_on_the_table_socket_is_paid_nothing(
    make_user, queued, settings
):
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 2  # even a field of two would not pay him
    arena, table_id, ana, alt = await database_sync_to_async(review_setup)(make_user)
    socket = await Player.join(table_id, alt)
    await socket.send({"type": "leave"})  # at once: no move of his own
    await socket.send({"type": "sync"})
    assert (await socket.receive())["type"] == "state"
    await socket.comm.disconnect()

    def play_out_and_end():
        assert Seat.objects.get(table_id=table_id, user=alt).forfeited
        seats = positions(table_id)
        drive(table_id, {seats[ana.pk]: ana}, rng=random.Random(7))
        assert Seat.objects.get(table_id=table_id, user=alt).unpaid == "standin"
        assert player(arena, alt).games == 1  # he was paired and his game counted
        end(arena)
        assert player(arena, alt).rank is None
        assert player(arena, alt).prize_coins == player(arena, alt).prize_xp == 0
        assert player(arena, ana).rank == 1
        # A field of one earning player: below the minimum, no prize for anyone;
        # the table's own rewards are paid as usual (to the one who played).
        assert not Transaction.objects.filter(key__startswith="arena:").exists()
        assert not XpAward.objects.filter(key__startswith="arena:").exists()
        assert Transaction.objects.filter(key=f"reward:{table_id}:{ana.pk}").exists()
        assert minted([alt]) == (0, 0)
        clean_audit()

    await database_sync_to_async(play_out_and_end)()


def farm(arena, me, leaver, idle, *, rounds: int = 6) -> None:
    """One person's three accounts: ``me`` plays every move, ``leaver`` leaves
    each game at once (joining again after each pause), ``idle`` never comes to
    the table (the stand-in plays it). Their cooldowns are waited out, so the
    conduct rules are not what stops the farm."""
    for _ in range(rounds):
        Cooldown.objects.filter(user__in=[leaver, idle]).delete()
        if player(arena, leaver).paused:
            arena_join(arena_id=arena.pk, user=leaver)
        for user in (me, leaver, idle):
            presence_mark(arena_id=arena.pk, user_id=user.pk)
        tables = arena_pair(arena_id=arena.pk)
        if not tables:
            return
        for table_id in tables:
            seats = positions(table_id)
            if leaver.pk in seats:
                seat_leave(table_id=table_id, user=leaver)
            drive(
                table_id,
                {seats[me.pk]: me} if me.pk in seats else {},
                rng=random.Random(table_id),
            )


@pytest.mark.parametrize("min_field", [1, 4])
def test_three_accounts_farming_earn_no_more_per_hour_than_one_honest_player(
    make_user, make_arena, queued, pushes, settings, min_field
):
    settings.TOURNAMENTS_ARENA_MIN_FIELD = min_field
    arena = make_arena("block-2", minutes=60)
    hours = (arena.ends_at - arena.starts_at).total_seconds() / 3600
    me, leaver, idle = make_user("me"), make_user("me_leaver"), make_user("me_idle")
    for user in (me, leaver, idle):
        arena_join(arena_id=arena.pk, user=user)
    farm(arena, me, leaver, idle)
    games = list(ArenaGame.objects.filter(arena=arena))
    assert len(games) >= 4  # the pairs met again and again
    end(arena)

    # One honest player playing the same games (the ones the person played, with
    # the same results) is paid the online tables' rewards for them.
    honest_coins = honest_xp = 0
    for game in games:
        if me.pk not in game.user_ids:
            continue
        seat = Seat.objects.get(table_id=game.table_id, user=me)
        assert seat.unpaid == ""  # the person played every move of theirs
        coins, xp, _percent = reward_base(mode="online", shape="2", position=seat.place)
        honest_coins += coins
        honest_xp += xp
    farm_coins, farm_xp = minted([me, leaver, idle])
    assert farm_coins / hours <= honest_coins / hours
    assert farm_xp / hours <= honest_xp / hours
    # The accounts that did not play were paid nothing, not even a rank.
    assert minted([leaver, idle]) == (0, 0)
    assert player(arena, leaver).rank is None and player(arena, idle).rank is None
    assert player(arena, leaver).games > 0 and player(arena, idle).games > 0
    clean_audit()


def play(table_id: int, users) -> None:
    """Play a table to its end: ``users`` seated there play every move of theirs."""
    seats = positions(table_id)
    drive(
        table_id,
        {seats[u.pk]: u for u in users if u.pk in seats},
        rng=random.Random(table_id),
    )


def fail_once(notice) -> None:
    raise RuntimeError("the arena's count of this table is left to the sweep")


def test_the_last_game_racing_the_arenas_end_pays_each_prize_once(
    make_user, make_arena, queued, pushes, settings
):
    """Repeated: two processes end the arena while its last game is being
    counted; whichever order, the player who left their only game is paid
    nothing, and every prize is paid once."""
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 4
    settings.TOURNAMENTS_ARENA_GRACE_MINUTES = 0
    for attempt in range(3):
        arena = make_arena()
        users = [make_user(f"race{attempt}_{i}") for i in range(6)]
        for user in users:
            arena_join(arena_id=arena.pk, user=user)
            presence_mark(arena_id=arena.pk, user_id=user.pk)
        # Round 1: three tables; at the first, one player leaves at once.
        tables = arena_pair(arena_id=arena.pk)
        assert len(tables) == 3
        leaver_id = min(positions(tables[0]))
        leaver = next(u for u in users if u.pk == leaver_id)
        seat_leave(table_id=tables[0], user=leaver)
        for table_id in tables:
            play(table_id, [u for u in users if u != leaver])
        # Round 2 (the leaver is paused): the last table is played to its end,
        # but its count in the arena fails once (the sweep's to retry).
        *played, last = arena_pair(arena_id=arena.pk)
        assert leaver.pk not in positions(last)
        for table_id in played:
            play(table_id, users)
        owed = consequence("arena")
        consequence_register("arena", fail_once, modes=owed.modes)
        try:
            play(last, users)
        finally:
            consequence_register("arena", owed.apply, modes=owed.modes)
        assert ArenaGame.objects.get(table_id=last).scored_at is None
        Arena.objects.filter(pk=arena.pk).update(
            status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
        )
        in_threads(
            lambda call: call(),
            [
                (partial(arena_finish, arena_id=arena.pk),),
                (partial(arena_finish, arena_id=arena.pk),),
                (partial(finish_step_apply, table_id=last, name="arena"),),
            ],
        )
        assert Arena.objects.get(pk=arena.pk).status == Arena.Status.FINISHED
        assert ArenaPlayer.objects.get(arena=arena, user=leaver).rank is None
        assert minted([leaver]) == (0, 0)
        assert not Transaction.objects.filter(
            key=f"arena:{arena.pk}:{leaver.pk}"
        ).exists()
        paid = Transaction.objects.filter(key__startswith=f"arena:{arena.pk}:")
        assert paid.count() >= 1  # a field of five: prizes are paid, once each
        assert player(arena, leaver).games == 1
        assert (
            paid.count()
            == ArenaPlayer.objects.filter(arena=arena, prize_coins__gt=0).count()
        )
    clean_audit()
