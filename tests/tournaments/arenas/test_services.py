"""The arena services on the database: join and pause, pairing into online tables,
scoring a finished game, the end with games in progress, prizes once."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from economy.selectors import player_xp, wallet_balance
from games.finish import consequences_for
from games.models import Seat, Table
from games.services import table_cancel
from matchmaking.pools.conduct import offence_record
from matchmaking.pools.models import Cooldown, Search
from tests.economy.conftest import fund, snapshot
from tests.support.tables import drive
from tests.tournaments.arenas.helpers import finish, player
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.presence import presence_clear
from tournaments.arenas.services import (
    arena_finish,
    arena_join,
    arena_pair,
    arena_withdraw,
    arenas_tick,
)
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo
from tournaments.sitgo.services import sitgo_enter, sitgo_withdraw

pytestmark = pytest.mark.django_db


def test_join_pause_and_resume(
    make_arena, make_user, arena_quiet, django_capture_on_commit_callbacks
):
    arena = make_arena()
    ana = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        arena_join(arena_id=arena.pk, user=ana)
    assert arena_quiet == [arena.pk]  # a pairing is queued at once
    with pytest.raises(ArenaError) as refused:
        arena_join(arena_id=arena.pk, user=ana)
    assert refused.value.code == "joined"
    arena_withdraw(arena_id=arena.pk, user=ana)
    assert player(arena, ana).paused
    with pytest.raises(ArenaError):
        arena_withdraw(arena_id=arena.pk, user=ana)
    arena_join(arena_id=arena.pk, user=ana)
    assert not player(arena, ana).paused


def test_join_refused_after_the_end_and_in_a_cooldown(make_arena, make_user):
    over = make_arena()
    Arena.objects.filter(pk=over.pk).update(status=Arena.Status.FINISHED)
    ana = make_user()
    with pytest.raises(ArenaError) as refused:
        arena_join(arena_id=over.pk, user=ana)
    assert refused.value.code == "arena_over"
    Cooldown.objects.create(user=ana, until=timezone.now() + timedelta(minutes=5))
    with pytest.raises(ArenaError) as refused:
        arena_join(arena_id=make_arena().pk, user=ana)
    assert refused.value.code == "cooldown"
    assert "minute" in refused.value.message
    assert not ArenaPlayer.objects.filter(user=ana).exists()


def test_pairing_seats_free_people_at_online_tables_only(
    make_arena, joined, queued, pushes, django_capture_on_commit_callbacks
):
    arena = make_arena()
    users = joined(arena, 5)
    with django_capture_on_commit_callbacks(execute=True):
        tables = arena_pair(arena_id=arena.pk)
    assert len(tables) == 2  # one player waits: no computer player fills a seat
    for table in Table.objects.filter(pk__in=tables):
        assert table.mode == Table.Mode.ONLINE
        assert table.status == Table.Status.PLAYING
        seats = list(table.seats.all())
        assert all(s.user_id is not None and not s.bot_level for s in seats)
        assert not any(s.simulated for s in seats)
    seated = ArenaPlayer.objects.filter(arena=arena, table_id__isnull=False)
    assert seated.count() == 4
    assert not Seat.objects.filter(table_id__in=tables, user__isnull=True).exists()
    # The paired players are told where to go.
    paired = [m for g, m in pushes if m.get("type") == "arena.paired"]
    assert len(paired) == 4
    assert {p["url"] for p in paired} == {f"/tables/{t}/" for t in tables}
    # A second pass seats nobody new: the fifth player is alone.
    assert arena_pair(arena_id=arena.pk) == []
    assert len(users) == 5


def test_only_players_with_the_page_open_and_free_elsewhere_are_paired(
    make_arena, joined, queued, pushes, make_user
):
    arena = make_arena()
    a, b, c, d = joined(arena, 4)
    presence_clear(arena_id=arena.pk, user_id=a.pk)
    now = timezone.now()
    Search.objects.create(
        user=b, pool="draw-2", rating=1500, started_at=now, seen_at=now
    )
    assert arena_pair(arena_id=arena.pk) != []
    assert set(
        ArenaPlayer.objects.filter(table_id__isnull=False).values_list(
            "user", flat=True
        )
    ) == {c.pk, d.pk}


def test_a_seat_at_another_live_table_keeps_a_player_out_of_the_pairing(
    make_arena, joined, queued, pushes, make_user
):
    from games.services import SeatTaker, table_seated_create

    arena = make_arena()
    a, b, c, d, e = joined(arena, 5)
    table_seated_create(  # a and b play a live online table elsewhere
        mode=Table.Mode.ONLINE,
        variant="draw",
        seats=[SeatTaker(user=a), SeatTaker(user=b)],
    )
    over = table_seated_create(
        mode=Table.Mode.ONLINE,
        variant="draw",
        seats=[SeatTaker(user=c), SeatTaker(user=make_user())],
    )
    Table.objects.filter(pk=over.pk).update(status=Table.Status.FINISHED)
    assert len(arena_pair(arena_id=arena.pk)) == 1
    seated = ArenaPlayer.objects.filter(arena=arena, table_id__isnull=False)
    assert set(seated.values_list("user", flat=True)) == {c.pk, d.pk}
    assert e.pk not in ArenaGame.objects.get().user_ids


def test_pairing_writes_the_meetings_and_seats_under_the_players_names(
    make_arena, joined, queued, pushes, django_capture_on_commit_callbacks
):
    arena = make_arena(pool="draw-4p")
    users = joined(arena, 4)
    ArenaPlayer.objects.filter(arena=arena, user=users[0]).update(
        opponents={str(users[1].pk): 1}, partners={str(users[2].pk): 2}
    )
    with django_capture_on_commit_callbacks(execute=True):
        (table_id,) = arena_pair(arena_id=arena.pk)
    seated = ArenaGame.objects.get(table_id=table_id).user_ids
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    assert [s.user_id for s in seats] == seated
    names = {u.pk: u.username for u in users}
    for position, user_id in enumerate(seated):
        me = player(arena, users[[u.pk for u in users].index(user_id)])
        partner = seated[(position + 2) % 4]
        rivals = [u for u in seated if u not in (user_id, partner)]
        assert me.table_id == table_id
        assert sorted(me.last_opponents) == sorted(rivals)
        before_o = {str(users[1].pk): 1} if user_id == users[0].pk else {}
        before_p = {str(users[2].pk): 2} if user_id == users[0].pk else {}
        for rival in rivals:
            assert me.opponents[str(rival)] == before_o.get(str(rival), 0) + 1
        assert me.partners[str(partner)] == before_p.get(str(partner), 0) + 1
        assert set(me.opponents) == set(before_o) | {str(r) for r in rivals}
    # The first frames name the seats after their players.
    frames = [m for g, m in pushes if m.get("type") == "outbox.frames"]
    shown = {s["position"]: s["name"] for s in json.loads(frames[0]["text"])["seats"]}
    assert shown == {i: names[u] for i, u in enumerate(seated)}


def test_present_at_least_stops_once_it_knows(make_arena, joined):
    from tournaments.arenas.presence import present_at_least

    arena = make_arena()
    users = [u.pk for u in joined(arena, 3)]
    absent = list(range(10**6, 10**6 + 200))
    assert present_at_least(arena_id=arena.pk, user_ids=absent + users, count=3)
    assert not present_at_least(arena_id=arena.pk, user_ids=absent + users, count=4)
    assert present_at_least(arena_id=arena.pk, user_ids=[], count=0)
    presence_clear(arena_id=arena.pk, user_id=users[0])
    assert not present_at_least(arena_id=arena.pk, user_ids=users, count=3)


def test_paused_players_and_scheduled_arenas_are_not_paired(
    make_arena, joined, queued, pushes
):
    soon = make_arena(live=False)
    joined(soon, 2)
    assert arena_pair(arena_id=soon.pk) == []
    arena = make_arena()
    a, _b = joined(arena, 2)
    arena_withdraw(arena_id=arena.pk, user=a)
    assert arena_pair(arena_id=arena.pk) == []


def test_a_finished_game_scores_with_the_streak_and_frees_the_players(
    make_arena, joined, queued, pushes
):
    arena = make_arena()
    ana, ben, cid, dan = joined(arena, 4)
    # Ana wins three games in a row: 2 + 2 + 4 (the third counts double).
    for _ in range(3):
        tables = arena_pair(arena_id=arena.pk)
        assert tables
        for table_id in tables:
            game = ArenaGame.objects.get(table_id=table_id)
            a, b = game.user_ids
            winner = ana.pk if ana.pk in (a, b) else min(a, b)
            finish(table_id, {a: 1 if a == winner else 2, b: 1 if b == winner else 2})
    me = player(arena, ana)
    assert (me.score, me.streak, me.games, me.wins) == (8, 3, 3, 3)
    assert me.table_id is None
    assert me.performance is not None and me.performance > 1500
    # Nobody met the same opponent twice in a row.
    opponents = [
        g.user_ids for g in ArenaGame.objects.order_by("pk") if ana.pk in g.user_ids
    ]
    rivals = [next(u for u in ids if u != ana.pk) for ids in opponents]
    assert all(x != y for x, y in zip(rivals, rivals[1:], strict=False))


def test_scoring_is_once_per_table(make_arena, joined, queued, pushes):
    arena = make_arena()
    a, b = joined(arena, 2)
    (table_id,) = arena_pair(arena_id=arena.pk)
    finish(table_id, {a.pk: 1, b.pk: 2})
    finish(table_id, {a.pk: 1, b.pk: 2})
    assert player(arena, a).score == 2
    assert player(arena, a).games == 1


def test_a_forfeit_scores_nothing_and_pauses_the_leaver(
    make_arena, joined, queued, pushes
):
    arena = make_arena()
    a, b = joined(arena, 2)
    (table_id,) = arena_pair(arena_id=arena.pk)
    finish(table_id, {a.pk: 2, b.pk: 1}, forfeited={a.pk})
    assert player(arena, a).paused
    assert player(arena, a).score == 0
    assert player(arena, b).score == 2


def test_a_real_game_counts_through_the_finish_consequence(
    make_arena, joined, queued, pushes, django_capture_on_commit_callbacks
):
    assert "arena" in consequences_for("online")
    arena = make_arena()
    a, b = joined(arena, 2)
    (table_id,) = arena_pair(arena_id=arena.pk)
    with django_capture_on_commit_callbacks(execute=True):
        drive(
            table_id,
            {0: a, 1: b}
            if ArenaGame.objects.get(table_id=table_id).user_ids[0] == a.pk
            else {0: b, 1: a},
            rng=random.Random(3),
        )
    rows = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=arena)}
    assert sorted(p.score for p in rows.values()) == [0, 2]
    assert all(p.games == 1 and p.table_id is None for p in rows.values())
    # Rated and rewarded like any online table.
    from matchmaking.pools.models import RatingChange

    assert RatingChange.objects.filter(table_id=table_id).count() == 2
    assert wallet_balance(user_id=a.pk) > 0 and wallet_balance(user_id=b.pk) > 0


def test_a_cancelled_table_counts_for_nobody(
    make_arena, joined, queued, pushes, django_capture_on_commit_callbacks
):
    arena = make_arena()
    a, b = joined(arena, 2)
    (table_id,) = arena_pair(arena_id=arena.pk)
    with django_capture_on_commit_callbacks(execute=True):
        table_cancel(table_id=table_id, reason="staff")
    assert ArenaGame.objects.get(table_id=table_id).scored_at is not None
    for p in ArenaPlayer.objects.filter(arena=arena):
        assert (p.games, p.score, p.table_id) == (0, 0, None)


def test_the_end_waits_for_games_in_progress_which_still_count(
    make_arena, joined, queued, pushes
):
    arena = make_arena()
    a, b, c, d = joined(arena, 4)
    first, second = arena_pair(arena_id=arena.pk)
    finish(
        first,
        {
            u: i + 1
            for i, u in enumerate(ArenaGame.objects.get(table_id=first).user_ids)
        },
    )
    Arena.objects.filter(pk=arena.pk).update(
        ends_at=timezone.now() - timedelta(seconds=1)
    )
    arenas_tick()
    arena.refresh_from_db()
    assert arena.status == Arena.Status.ENDING  # the second game is still playing
    assert arena_pair(arena_id=arena.pk) == []  # and nobody new is paired
    late = ArenaGame.objects.get(table_id=second).user_ids
    finish(second, {late[0]: 1, late[1]: 2})
    assert player(arena, late[0]).score == 2  # counted after the clock
    arenas_tick()
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    ranks = dict(ArenaPlayer.objects.filter(arena=arena).values_list("user_id", "rank"))
    assert sorted(ranks.values()) == [1, 1, 3, 3]


def test_prizes_by_rank_paid_once_and_boosted(
    make_arena, joined, queued, pushes, settings
):
    from economy.models import Boost
    from economy.services import shop_buy

    settings.TOURNAMENTS_ARENA_PRIZES = [(300, 90), (100, 30)]
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 2  # one paid place: half the field
    settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME = (1000, 1000)  # nothing cut
    arena = make_arena()
    a, b, c = joined(arena, 3)
    (table_id,) = arena_pair(arena_id=arena.pk)
    ids = ArenaGame.objects.get(table_id=table_id).user_ids
    winner, loser = ids
    finish(table_id, {winner: 1, loser: 2})
    from tests.economy.conftest import fund

    winner_user = next(u for u in (a, b, c) if u.pk == winner)
    loser_user = next(u for u in (a, b, c) if u.pk == loser)
    fund(winner, 600)
    shop_buy(user_id=winner, item="gold", request_key="arena-test")  # x2 on rewards
    assert Boost.objects.filter(user_id=winner).exists()
    before = {u: wallet_balance(user_id=u) for u in (winner, loser)}
    xp_before = {u: player_xp(user_id=u) for u in (winner, loser)}
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert arena_finish(arena_id=arena.pk)
    assert not arena_finish(arena_id=arena.pk)  # once
    assert wallet_balance(user_id=winner) - before[winner] == 600
    assert player_xp(user_id=winner) - xp_before[winner] == 180
    # Half of a field of two is one paid place; the loser scored nothing anyway.
    assert wallet_balance(user_id=loser) - before[loser] == 0
    assert player_xp(user_id=loser) - xp_before[loser] == 0
    assert player(arena, loser_user).rank == 2
    # The third player never played: no rank, no prize.
    idle = next(u for u in (a, b, c) if u.pk not in ids)
    assert player(arena, idle).rank is None and wallet_balance(user_id=idle.pk) == 0
    assert player(arena, winner_user).prize_coins == 600
    from tests.economy.conftest import assert_sound

    assert_sound()


def test_a_leaver_is_not_paired_during_a_cooldown(make_arena, joined, queued, pushes):
    arena = make_arena()
    a, b, c = joined(arena, 3)
    offence_record(user_id=a.pk, table_id=1, kind="forfeit")  # a warning only
    offence_record(user_id=a.pk, table_id=2, kind="forfeit")  # a cooldown
    (table_id,) = arena_pair(arena_id=arena.pk)
    assert a.pk not in ArenaGame.objects.get(table_id=table_id).user_ids


def test_leaving_an_arena_game_is_leaving_a_ranked_table(
    make_arena, joined, queued, pushes, django_capture_on_commit_callbacks
):
    from games.services import seat_leave
    from matchmaking.pools.models import Offence

    arena = make_arena()
    a, b = joined(arena, 2)
    (table_id,) = arena_pair(arena_id=arena.pk)
    seat_leave(table_id=table_id, user=a)
    order = ArenaGame.objects.get(table_id=table_id).user_ids
    users = {i: (a if u == a.pk else b) for i, u in enumerate(order)}
    with django_capture_on_commit_callbacks(execute=True):
        drive(
            table_id, {i: u for i, u in users.items() if u == b}, rng=random.Random(2)
        )
    assert Offence.objects.filter(user=a, table_id=table_id, kind="forfeit").exists()
    assert player(arena, a).paused and player(arena, a).score == 0
    assert player(arena, b).score == 2


def test_a_player_in_a_sit_and_go_is_not_paired_until_it_is_over(
    make_arena, joined, queued, pushes
):
    arena = make_arena()
    a, b, c = joined(arena, 3)
    fund(a.pk, 100)
    row = sitgo_enter(user=a, size=4, entry=100)
    (table_id,) = arena_pair(arena_id=arena.pk)
    assert ArenaPlayer.objects.get(arena=arena, user=a).table_id is None
    assert {s.user_id for s in Seat.objects.filter(table_id=table_id)} == {b.pk, c.pk}
    sitgo_withdraw(user=a, sitgo_id=row.pk)
    d = joined(arena, 1)[0]
    (table_id,) = arena_pair(arena_id=arena.pk)
    assert {s.user_id for s in Seat.objects.filter(table_id=table_id)} == {a.pk, d.pk}


def test_a_player_in_an_arena_game_cannot_enter_a_sit_and_go(
    make_arena, joined, queued, pushes
):
    arena = make_arena()
    ana, _ben = joined(arena, 2)
    fund(ana.pk, 100)
    arena_pair(arena_id=arena.pk)
    before = snapshot()
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=ana, size=4, entry=100)
    assert err.value.code == "busy_elsewhere"
    assert err.value.message == (
        "You are playing an arena game: finish it before entering a sit-and-go."
    )
    assert snapshot() == before
    assert not SitGo.objects.exists()
