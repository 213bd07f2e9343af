"""What the result screen of a finished table is told beyond the scores: why a
ranked table changed no rating, what the "?" of a provisional rating means, and
(for an event's table) the event's standing and the player's prize."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Seat
from games.services import seat_join, table_create, table_start
from tests.matchmaking.test_competitive_pages import finished_online
from tests.support.tables import drive, two_human_table
from tests.tournaments.sitgo.helpers import fill, live_tables, play_out
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.sitgo.models import SitGoEntry

pytestmark = pytest.mark.django_db


def _backfilled_table(make_user, django_capture_on_commit_callbacks):
    """A ranked table of one person and a computer player that filled the seat."""
    ana = make_user("ana")
    table = table_create(
        mode="online", variant="draw", options={"target": 50}, clock_seconds=30
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, bot_level="medium", simulated=True, name="Vera42")
    table_start(table_id=table.pk)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana}, rng=random.Random(5))
    return table, ana


def test_a_ranked_table_filled_by_computers_says_it_was_unrated(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana = _backfilled_table(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    body = client.get(reverse("table-outcome", args=[table.pk])).json()
    assert body["pending"] is False
    assert body["change"] is None and body["rating"] is None
    assert body["unrated"] == "computers"


def test_a_rated_table_says_its_rating_is_provisional_and_how_far_it_has_to_go(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks, settings
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    body = client.get(reverse("table-outcome", args=[table.pk])).json()
    assert body["unrated"] is None
    assert body["rating"].endswith("?")
    assert body["provisional"] is True
    assert body["tables"] == 1
    assert body["needed"] == settings.MATCHMAKING_PROVISIONAL_TABLES


def test_a_settled_rating_is_not_called_provisional(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks, settings
):
    settings.MATCHMAKING_PROVISIONAL_TABLES = 1
    settings.MATCHMAKING_PROVISIONAL_SIGMA = 100.0
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    body = client.get(reverse("table-outcome", args=[table.pk])).json()
    assert not body["rating"].endswith("?")
    assert body["provisional"] is False


def test_a_friend_table_is_never_called_unrated(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    # Friend tables never rate: there is nothing to explain.
    table, ana, ben = two_human_table(make_user, mode="friend", target=50)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(2))
    client.force_login(ana)
    body = client.get(reverse("table-outcome", args=[table.pk])).json()
    assert body["unrated"] is None and body["change"] is None


# --- the event's standing and prize --------------------------------------------


def test_a_sit_and_go_winner_is_told_the_events_prize_and_the_way_to_its_standings(
    client, funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(250) for _ in range(4)]
    row = fill(users, entry=250)
    (game,) = live_tables(row)
    play_out(game.table_id, capture=django_capture_on_commit_callbacks)
    winner = SitGoEntry.objects.get(sitgo=row, place=1)
    client.force_login(winner.user)
    page = client.get(reverse("table", args=[game.table_id])).content.decode()
    standing_url = reverse("table-event", args=[game.table_id])
    assert f'data-standing="{standing_url}"' in page
    body = client.get(standing_url).json()
    assert body == {
        "pending": False,
        "kind": "sitgo",
        "url": reverse("sitgo", args=[row.pk]),
        "state": "finished",
        "place": 1,
        "coins": 650,  # the pot's first share, not the table's own reward
        "xp": 0,
    }


def test_a_sit_and_go_round_still_running_says_the_prize_comes_at_the_end(
    client, funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(250) for _ in range(8)]
    row = fill(users, entry=250)
    first, _second = live_tables(row, 1)
    play_out(first.table_id, capture=django_capture_on_commit_callbacks)
    player = Seat.objects.filter(table_id=first.table_id).first().user
    client.force_login(player)
    body = client.get(reverse("table-event", args=[first.table_id])).json()
    assert body["state"] == "running"
    assert body["place"] is None and body["coins"] == 0
    assert body["url"] == reverse("sitgo", args=[row.pk])


def test_an_arena_table_tells_the_rank_and_prize_once_the_arena_has_paid(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = two_human_table(make_user, mode="online", target=50)
    arena = Arena.objects.create(
        pool="draw-2",
        variant="draw",
        seats=2,
        starts_at=timezone.now() - timedelta(minutes=5),
        ends_at=timezone.now() + timedelta(minutes=25),
        status=Arena.Status.LIVE,
    )
    ArenaGame.objects.create(arena=arena, table=table, user_ids=[ana.pk, ben.pk])
    for user in (ana, ben):
        ArenaPlayer.objects.create(arena=arena, user=user, free_since=timezone.now())
    url = reverse("table-event", args=[table.pk])
    client.force_login(ana)
    assert client.get(url).json()["state"] == "running"

    ArenaPlayer.objects.filter(arena=arena, user=ana).update(
        rank=1, prize_coins=500, prize_xp=100
    )
    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.FINISHED)
    body = client.get(url).json()
    assert body["kind"] == "arena" and body["url"] == reverse("arena", args=[arena.pk])
    assert (body["state"], body["place"], body["coins"], body["xp"]) == (
        "finished",
        1,
        500,
        100,
    )


def test_the_event_standing_is_only_for_the_tables_own_players(
    client, funded, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(250) for _ in range(4)]
    row = fill(users, entry=250)
    (game,) = live_tables(row)
    client.force_login(make_user("cleo"))
    assert client.get(reverse("table-event", args=[game.table_id])).status_code == 404
    # A table of no event has no standing to tell.
    table, ana, _ben = two_human_table(make_user, mode="online", target=50)
    client.force_login(ana)
    assert client.get(reverse("table-event", args=[table.pk])).status_code == 404
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "data-standing" not in page
