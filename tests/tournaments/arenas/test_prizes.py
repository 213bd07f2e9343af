"""Arena prizes follow "earning needs playing" (RULES.md §5): only players with a
game of their own are ranked, nothing below the minimum field, a purse bounded by
the earning games; the page says so (docs/tournaments.md, "Rewards")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from economy.models import Transaction
from economy.selectors import wallet_balance
from ops.audit import audit_run
from tests.tournaments.arenas.helpers import finish, player
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.services import arena_finish, arena_pair

pytestmark = pytest.mark.django_db


def pair_and_finish(arena, *, winners, standin=(), forfeited=()):
    """Pair every free player and finish each new table: a player of ``winners``
    wins (else the lower user id)."""
    tables = arena_pair(arena_id=arena.pk)
    assert tables
    for table_id in tables:
        a, b = ArenaGame.objects.get(table_id=table_id).user_ids
        win = a if a in winners or b not in winners and a < b else b
        finish(
            table_id,
            {a: 1 if a == win else 2, b: 1 if b == win else 2},
            standin=[u for u in (a, b) if u in standin],
            forfeited=[u for u in (a, b) if u in forfeited],
        )
    return tables


def end(arena):
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert arena_finish(arena_id=arena.pk)


def minted_prizes(arena):
    return dict(
        ArenaPlayer.objects.filter(arena=arena, prize_coins__gt=0).values_list(
            "user_id", "prize_coins"
        )
    )


def test_a_player_whose_games_were_the_stand_ins_takes_no_rank_and_no_prize(
    make_arena, joined, queued, pushes, settings
):
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 2
    arena = make_arena()
    ana, ben = joined(arena, 2)
    # Ben's stand-in wins: he scores the points, but it was not his game.
    pair_and_finish(arena, winners={ben.pk}, standin={ben.pk})
    assert player(arena, ben).score == 2
    end(arena)
    assert player(arena, ben).rank is None
    assert player(arena, ana).rank == 1
    assert minted_prizes(arena) == {}  # a field of one is below the minimum
    assert not Transaction.objects.filter(key__startswith="arena:").exists()
    assert audit_run()["minting"] == []


def test_the_leaver_of_the_review_is_not_ranked_and_nobody_is_paid_below_the_field(
    make_arena, joined, queued, pushes
):
    arena = make_arena("block-2")
    ana, ben = joined(arena, 2)
    pair_and_finish(arena, winners={ana.pk}, standin={ben.pk}, forfeited={ben.pk})
    end(arena)
    assert (player(arena, ana).rank, player(arena, ben).rank) == (1, None)
    assert minted_prizes(arena) == {}
    assert wallet_balance(user_id=ben.pk) == 0


def test_ranks_and_prizes_are_among_the_players_with_a_game_of_their_own(
    make_arena, joined, queued, pushes, settings
):
    settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME = (1000, 1000)  # nothing cut here
    arena = make_arena()
    users = joined(arena, 6)
    ids = {u.pk for u in users}
    # Three tables; the lower id wins each; the losers at two of them left at once
    # (their stand-ins played their seats).
    games = []
    for n, table_id in enumerate(arena_pair(arena_id=arena.pk)):
        a, b = sorted(ArenaGame.objects.get(table_id=table_id).user_ids)
        left = [b] if n < 2 else []
        finish(table_id, {a: 1, b: 2}, standin=left, forfeited=left)
        games.append((a, b))
    winners = [a for a, _b in games]
    losers = [b for _a, b in games]
    end(arena)
    ranked = dict(
        ArenaPlayer.objects.filter(arena=arena).values_list("user_id", "rank")
    )
    assert {u for u, r in ranked.items() if r is None} == set(losers[:2])
    # The field: the three winners and the one loser who played: 4, two paid
    # places; the winners share rank 1 and each takes its prize.
    assert ranked[losers[2]] == 4
    assert {ranked[w] for w in winners} == {1}
    assert minted_prizes(arena) == {w: 1000 for w in winners}
    assert ids == set(ranked)
    assert audit_run()["minting"] == []


def test_the_purse_is_bounded_by_the_earning_games(
    make_arena, joined, queued, pushes, settings
):
    settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME = (25, 8)
    arena = make_arena()
    users = joined(arena, 4)
    first = min(u.pk for u in users)
    pair_and_finish(arena, winners={first})
    end(arena)
    # 4 earning games at 25 coins each: 100 coins for the two rank-1 winners.
    paid = minted_prizes(arena)
    assert len(paid) == 2 and sum(paid.values()) <= 25 * 4
    assert sum(paid.values()) == 100


def test_the_page_shows_the_minimum_field_and_the_prizes_so_far(
    client, make_user, make_arena, joined, queued, pushes, settings
):
    settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME = (25, 8)
    arena = make_arena()
    users = joined(arena, 4)
    client.force_login(users[0])
    page = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert "No prize is paid unless at least 4 such players take part." in page
    assert "at most 25 coins and 8 XP for each game of their own" in page
    assert "Players with a game of their own: 0. Their games: 0." in page
    assert "no prize so far" in page
    pair_and_finish(arena, winners=set())
    page = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert "Players with a game of their own: 4. Their games: 4." in page
    assert "Prizes if the arena ended now" in page
    # 100 coins and 32 XP for two places, cut in proportion to 1000 and 600.
    assert "62 coins and 19 XP" in page and "37 coins and 12 XP" in page


def test_the_finished_page_tells_the_leaver_he_took_no_rank(
    client, make_arena, joined, queued, pushes
):
    arena = make_arena()
    ana, ben = joined(arena, 2)
    pair_and_finish(arena, winners={ana.pk}, standin={ben.pk}, forfeited={ben.pk})
    end(arena)
    client.force_login(ben)
    page = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert "None of your games here was a game of your own" in page
    assert "Too few players played games of their own: this arena paid no prize." in (
        page
    )
    row = page[page.index(f'data-user="{ben.pk}"') :]
    assert row.split("</td>")[0].endswith(">–")
    frame = client.get(reverse("arena-state", args=[arena.pk])).json()["standings"]
    assert [r[0] for r in frame["rows"] if r[1] == ben.pk] == [None]
    assert [r[0] for r in frame["rows"] if r[1] == ana.pk] == [1]
