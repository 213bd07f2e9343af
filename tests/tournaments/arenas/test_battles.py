"""Team battles: arenas where clubs compete. A club's leader starts one against
named rivals; members join for their club; teammates never meet; a club's score is
its best players' scores; the winning club's counted players who played a game of
their own get the club prize, once, and the audit agrees; the pages show it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from clubs.services import club_create, club_join
from economy.models import Transaction
from ops.audit import audit_run
from tests.tournaments.arenas.helpers import finish
from tournaments.arenas.battles import battle_create, team_rows
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena, ArenaClub, ArenaGame, ArenaPlayer
from tournaments.arenas.pairing import Free, pairing_round
from tournaments.arenas.presence import presence_mark
from tournaments.arenas.selectors import standings_frame
from tournaments.arenas.services import arena_finish, arena_join, arena_pair

pytestmark = pytest.mark.django_db


def test_teammates_never_meet_in_the_pairing():
    free = [
        Free(user_id=u, score=0, rating=1500.0, waited=10.0 - u) for u in range(1, 7)
    ]
    teams = {1: 10, 2: 10, 3: 10, 4: 20, 5: 20, 6: 20}
    pairing = pairing_round(free, seats=2, teams=teams)
    assert len(pairing.tables) == 3
    for a, b in pairing.tables:
        assert teams[a] != teams[b]
    # One club's players alone: nobody to meet.
    alone = pairing_round(free[:3], seats=2, teams=teams)
    assert alone.tables == [] and alone.waiting == [1, 2, 3]


@pytest.fixture
def clubs(make_user):
    """Two clubs, each with a leader and two members; a third club of one."""
    made = {}
    for name in ("Harbour", "Lighthouse", "Pier"):
        leader = make_user(f"{name.lower()}0")
        club = club_create(
            user=leader, name=name, description="", language="en", open=True
        )
        members = [leader]
        for n in range(1, 3 if name != "Pier" else 1):
            user = make_user(f"{name.lower()}{n}")
            club_join(user=user, slug=club.slug)
            members.append(user)
        made[name] = (club, members)
    return made


def battle(clubs, *, rivals=("Lighthouse",), team_size=2, live=True):
    club, (leader, *_rest) = clubs["Harbour"]
    arena = battle_create(
        user=leader,
        club_slug=club.slug,
        rivals=list(rivals),
        name="Harbour against Lighthouse",
        pool_key="draw-2",
        starts_at=timezone.now() + timedelta(minutes=10),
        minutes=60,
        team_size=team_size,
    )
    if live:
        Arena.objects.filter(pk=arena.pk).update(
            status=Arena.Status.LIVE, starts_at=timezone.now() - timedelta(minutes=1)
        )
    return Arena.objects.get(pk=arena.pk)


def test_a_leader_starts_a_battle_and_every_field_is_checked(clubs):
    club, (leader, member, _other) = clubs["Harbour"]
    good = {
        "club_slug": club.slug,
        "rivals": ["lighthouse", "", "Pier"],
        "name": "Three harbours",
        "pool_key": "block-2",
        "starts_at": timezone.now() + timedelta(hours=1),
        "minutes": "90",
        "team_size": "3",
    }
    cases = [
        ("not_leader", {"user": member}),
        ("no_club", {"rivals": ["Nowhere"]}),
        ("clubs", {"rivals": ["Harbour"]}),
        ("bad_pool", {"pool_key": "draw-4p"}),
        ("bad_length", {"minutes": "10"}),
        ("team_size", {"team_size": "0"}),
        ("bad_start", {"starts_at": timezone.now()}),
        ("name_word", {"name": "Official battle"}),
    ]
    for code, change in cases:
        with pytest.raises(ArenaError) as err:
            battle_create(**{"user": leader, **good, **change})
        assert err.value.code == code and err.value.message
    assert not Arena.objects.exists()
    arena = battle_create(user=leader, **good)
    assert arena.team_size == 3 and arena.seats == 2 and arena.name == "Three harbours"
    assert sorted(
        ArenaClub.objects.filter(arena=arena).values_list("club__name", flat=True)
    ) == [
        "Harbour",
        "Lighthouse",
        "Pier",
    ]


def test_members_join_for_their_club_and_outsiders_are_refused(clubs, make_user):
    arena = battle(clubs, live=False)
    harbour, (h0, h1, _h2) = clubs["Harbour"]
    lighthouse, (l0, *_rest) = clubs["Lighthouse"]
    with pytest.raises(ArenaError) as err:
        arena_join(arena_id=arena.pk, user=make_user("stranger"))
    assert err.value.code == "not_in_battle"
    assert arena_join(arena_id=arena.pk, user=h1).club == harbour
    # A member of both clubs chooses, and only among them.
    club_join(user=l0, slug=harbour.slug)
    for bad in (None, "x", str(clubs["Pier"][0].pk)):
        with pytest.raises(ArenaError) as err:
            arena_join(arena_id=arena.pk, user=l0, club_id=bad)
        assert err.value.code == "choose_club"
    assert (
        arena_join(arena_id=arena.pk, user=l0, club_id=str(lighthouse.pk)).club
        == lighthouse
    )


def test_a_battle_pairs_clubs_against_each_other_and_scores_the_best(
    clubs, queued, pushes, settings
):
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 4
    settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME = (1000, 1000)
    arena = battle(clubs, team_size=2)
    harbour, h = clubs["Harbour"]
    lighthouse, li = clubs["Lighthouse"]
    for user in (*h, *li):
        arena_join(arena_id=arena.pk, user=user)
        presence_mark(arena_id=arena.pk, user_id=user.pk)
    club_of = {u.pk: harbour.pk for u in h} | {u.pk: lighthouse.pk for u in li}
    tables = arena_pair(arena_id=arena.pk)
    assert len(tables) == 3
    for table_id in tables:
        a, b = ArenaGame.objects.get(table_id=table_id).user_ids
        assert club_of[a] != club_of[b]
        win = a if club_of[a] == harbour.pk else b  # Harbour wins every game
        finish(table_id, {a: 1 if a == win else 2, b: 1 if b == win else 2})
    rows = team_rows(arena=arena)
    assert [(r.name, r.rank) for r in rows[:2]] == [("Harbour", 1), ("Lighthouse", 2)]
    # Three wins of 2 points: the two best count.
    assert rows[0].score == 4 and len(rows[0].counted) == 2
    frame = standings_frame(arena_id=arena.pk)
    assert frame["clubs"][0][2:] == ["Harbour", 4]
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert arena_finish(arena_id=arena.pk)
    assert not arena_finish(arena_id=arena.pk)
    teams = dict(
        ArenaClub.objects.filter(arena=arena).values_list("club__name", "rank")
    )
    assert teams == {"Harbour": 1, "Lighthouse": 2}
    prized = dict(
        ArenaPlayer.objects.filter(arena=arena, club_prize_coins__gt=0).values_list(
            "user_id", "club_prize_coins"
        )
    )
    # Two of Harbour's three winners are counted (team size 2): they alone.
    assert len(prized) == 2 and set(prized) <= {u.pk for u in h}
    assert set(prized.values()) == {settings.TOURNAMENTS_BATTLE_CLUB_PRIZE[0]}
    club_keys = Transaction.objects.filter(key__endswith=":club")
    assert club_keys.count() == 2
    assert audit_run()["minting"] == []


def test_no_club_prize_when_one_club_alone_played(clubs, queued, pushes, settings):
    settings.TOURNAMENTS_ARENA_MIN_FIELD = 2
    arena = battle(clubs, rivals=("Lighthouse", "Pier"))
    harbour, (h0, h1, h2) = clubs["Harbour"]
    pier, (p0,) = clubs["Pier"]
    for user in (h0, p0):
        arena_join(arena_id=arena.pk, user=user)
        presence_mark(arena_id=arena.pk, user_id=user.pk)
    (table_id,) = arena_pair(arena_id=arena.pk)
    a, b = ArenaGame.objects.get(table_id=table_id).user_ids
    # Pier's player left at once: only Harbour had a player with a game of their own.
    finish(
        table_id,
        {a: 1 if a == h0.pk else 2, b: 1 if b == h0.pk else 2},
        standin=[p0.pk],
        forfeited=[p0.pk],
    )
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.ENDING, ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert arena_finish(arena_id=arena.pk)
    assert not Transaction.objects.filter(key__endswith=":club").exists()
    assert audit_run()["minting"] == []


def test_a_club_prize_paid_without_a_game_is_caught_by_the_audit(clubs, settings):
    from tournaments.arenas.prizes import arena_prizes_pay

    arena = battle(clubs)
    _harbour, (h0, *_rest) = clubs["Harbour"]
    arena_prizes_pay(
        arena_id=arena.pk, prizes={h0.pk: (1, 300, 100)}, at=timezone.now(), club=True
    )
    found = audit_run()["minting"]
    assert found and f"arena:{arena.pk}:{h0.pk}:club" in found[0]


# --- pages


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_battle_pages(client, clubs, make_user):
    harbour, (h0, h1, _h2) = clubs["Harbour"]
    client.force_login(h0)
    page = client.get(reverse("club", args=[harbour.slug])).content.decode()
    assert 'id="battle-new"' in page
    local = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "club": harbour.slug,
        "name": "Friday battle",
        "rival": ["Lighthouse", ""],
        "pool": "draw-2",
        "minutes": "60",
        "team_size": "5",
        "starts_at": local,
        "offset": "0",
    }
    reply = client.post(
        reverse("battle-new"), {**form, "rival": ["Nowhere"]}, follow=True
    )
    assert said(reply) == ["No club goes by Nowhere."]
    reply = client.post(reverse("battle-new"), form, follow=True)
    arena = Arena.objects.get()
    assert reply.redirect_chain[-1][0] == reverse("arena", args=[arena.pk])
    assert said(reply) == ["The team battle is scheduled: the clubs' members may join."]
    page = reply.content.decode()
    assert "Team battle: Friday battle" in page and 'id="battle-standings"' in page
    client.force_login(h1)
    assert (
        'id="club-battles"'
        in client.get(reverse("club", args=[harbour.slug])).content.decode()
    )
    assert (
        'id="battle-new"'
        not in client.get(reverse("club", args=[harbour.slug])).content.decode()
    )
    client.force_login(make_user("stranger"))
    page = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert 'id="battle-closed"' in page and 'id="arena-join"' not in page
    reply = client.post(reverse("arena-join", args=[arena.pk]), follow=True)
    assert said(reply) == ["This team battle is for the members of its clubs."]
    # A member of both clubs is asked which one.
    lighthouse, (l0, *_rest) = clubs["Lighthouse"]
    club_join(user=l0, slug=harbour.slug)
    client.force_login(l0)
    page = client.get(reverse("arena", args=[arena.pk])).content.decode()
    assert 'id="battle-club"' in page
    client.post(reverse("arena-join", args=[arena.pk]), {"club": str(lighthouse.pk)})
    assert ArenaPlayer.objects.get(arena=arena, user=l0).club == lighthouse
