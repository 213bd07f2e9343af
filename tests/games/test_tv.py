"""TV (``games.tv``): the best live game of a channel, shown to anyone as
spectators see it, and the next one once it has ended."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Table
from games.selectors import table_frame
from games.services import seat_join, table_create, table_start, table_tick
from games.services.creating import SeatTaker, table_seated_create
from games.tv import ALL, tv_channels, tv_now, tv_table_id
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Rating
from matchmaking.pools.ratings import MU, SIGMA
from tests.games.test_spectators import act_once
from tests.support import tables

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rank_every_time(settings):
    """Each request ranks the live tables (the pick kept a while has its own test:
    a pick kept in the shared Redis cache could be an earlier test's table)."""
    settings.TV_PICK_SECONDS = 0


def rate(user, variant: str, points: int) -> None:
    """Give ``user`` the displayed rating ``points`` in ``variant``."""
    mu = MU + (points - 1500) / 40
    Rating.objects.create(user=user, variant=variant, mu=mu, sigma=SIGMA, tables=30)
    assert rating_points(mu) == points


def live(mode: str, variant: str, *takers: SeatTaker) -> Table:
    """A started table of ``mode`` with every seat taken, its first hand dealt."""
    if mode == "stake":  # seated one by one, as the stake lobby does
        table = table_create(mode=mode, variant=variant, hand_pause_seconds=0)
        for taker in takers:
            seat_join(table_id=table.pk, user=taker.user)
        table_start(table_id=table.pk)
    else:
        table = table_seated_create(
            mode=mode,
            variant=variant,
            seats=list(takers),
            clock_seconds=30,
            hand_pause_seconds=0,
        )
    table = Table.objects.get(pk=table.pk)
    if table.state is None:  # a fair table waiting for its seeds: deal now
        Table.objects.filter(pk=table.pk).update(deadline=None)
        table_tick(table_id=table.pk, seq=table.seq)
        table = Table.objects.get(pk=table.pk)
    assert table.state is not None and table.status == Table.Status.PLAYING
    return table


def people(make_user, *names_and_points, variant="draw"):
    takers = []
    for name, points in names_and_points:
        user = make_user(name)
        if points is not None:
            rate(user, variant, points)
        takers.append(SeatTaker(user=user))
    return takers


def computer(name="Vera"):
    return SeatTaker(bot_level="easy", simulated=True, name=name)


def test_the_highest_average_rating_of_the_people_wins(make_user, queued):
    live("online", "draw", *people(make_user, ("a1", 1600), ("a2", 1600)))
    best = live("online", "draw", *people(make_user, ("b1", 1900), ("b2", 1500)))
    live("stake", "draw", *people(make_user, ("c1", 1650), ("c2", 1650)))
    assert tv_table_id(channel=ALL) == best.pk


def test_computers_do_not_count_and_a_table_without_people_is_never_shown(
    make_user, queued
):
    pair = live("online", "draw", *people(make_user, ("a1", 1700), ("a2", 1700)))
    # One person rated 1800 with a simulated player: the person's 1800 counts alone.
    alone = live("online", "draw", *people(make_user, ("b1", 1800)), computer())
    live("online", "draw", computer("Ola"), computer("Max"))
    assert tv_table_id(channel=ALL) == alone.pk
    Table.objects.filter(pk=alone.pk).update(status=Table.Status.FINISHED)
    assert tv_table_id(channel=ALL) == pair.pk


def test_rooms_practice_and_ended_tables_are_never_on_tv(make_user, queued):
    live("friend", "draw", *people(make_user, ("r1", 2400), ("r2", 2400)))
    me = make_user("solo")
    rate(me, "draw", 2400)
    tables.finished_practice(me)
    ended = live("online", "draw", *people(make_user, ("e1", 2300), ("e2", 2300)))
    Table.objects.filter(pk=ended.pk).update(status=Table.Status.FINISHED)
    assert tv_table_id(channel=ALL) is None
    assert tv_now(channel=ALL)["table"] is None
    shown = live("online", "draw", *people(make_user, ("o1", None), ("o2", None)))
    assert tv_table_id(channel=ALL) == shown.pk


def test_a_variant_channel_shows_only_its_variant(make_user, queued):
    draw = live("online", "draw", *people(make_user, ("d1", 1500), ("d2", 1500)))
    block = live(
        "online",
        "block",
        *people(make_user, ("k1", 2000), ("k2", 2000), variant="block"),
    )
    assert tv_table_id(channel="draw") == draw.pk
    assert tv_table_id(channel="block") == block.pk
    assert tv_table_id(channel=ALL) == block.pk
    assert tv_table_id(channel="spider") is None


def test_the_channels_are_the_variants_with_pools(settings):
    pooled = {entry["variant"] for entry in settings.MATCHMAKING_POOLS}
    assert set(tv_channels()) == pooled
    assert list(tv_channels()) == [v for v in engine.VARIANTS if v in pooled]


def test_the_viewer_gets_the_spectators_frame_and_nothing_more(make_user, queued):
    table = live("online", "draw", *people(make_user, ("a1", 1500), ("a2", 1500)))
    rng = random.Random(2)
    users = {s.position: s.user for s in table.seats.select_related("user")}
    for _ in range(3):
        act_once(table.pk, users, rng)
    now = tv_now(channel=ALL)
    frame = now["frame"]
    assert now["table"] == table.pk and now["live"] is True
    assert frame == table_frame(table_id=table.pk, position=None)
    assert frame["you"] is None
    assert frame["table"]["timer"] is None  # the turn clock says whose turn it is
    assert frame["view"].get("hand") is None and frame["view"]["legal"] == []
    state = engine.from_json(Table.objects.get(pk=table.pk).state)
    # A move behind: what the players see now is not yet shown.
    assert frame["view"]["history"] != engine.view(state, None)["history"]
    for position in users:
        seat_frame = table_frame(table_id=table.pk, position=position)
        assert seat_frame["view"]["hand"]
        assert frame != seat_frame


def test_the_watched_game_stays_then_the_next_best_comes_on(make_user, queued):
    watched = live("online", "draw", *people(make_user, ("a1", 1500), ("a2", 1500)))
    assert tv_now(channel=ALL)["table"] == watched.pk
    better = live("online", "draw", *people(make_user, ("b1", 2000), ("b2", 2000)))
    # A better game started meanwhile: the viewer keeps the one they watch.
    assert tv_now(channel=ALL, watching=watched.pk)["table"] == watched.pk
    assert tv_now(channel=ALL)["table"] == better.pk
    users = {s.position: s.user for s in watched.seats.select_related("user")}
    tables.drive(watched.pk, users, rng=random.Random(3))
    ended = tv_now(channel=ALL, watching=watched.pk)
    assert (ended["table"], ended["live"]) == (watched.pk, False)
    assert ended["frame"]["view"]["phase"] == "match_over"
    # A while after its end (or asked without it) the channel shows the next game.
    Table.objects.filter(pk=watched.pk).update(
        finished_at=timezone.now() - timedelta(minutes=5)
    )
    moved = tv_now(channel=ALL, watching=watched.pk)
    assert (moved["table"], moved["live"]) == (better.pk, True)


def test_a_channels_pick_is_kept_a_while_but_never_past_its_game(
    make_user, queued, settings, django_assert_max_num_queries
):
    from django.core.cache import cache

    settings.TV_PICK_SECONDS = 60
    cache.delete_many([f"tv:pick:{ALL}", "tv:pick:draw"])
    first = live("online", "draw", *people(make_user, ("a1", 1500), ("a2", 1500)))
    assert tv_now(channel=ALL)["table"] == first.pk
    better = live("online", "draw", *people(make_user, ("b1", 2000), ("b2", 2000)))
    assert tv_table_id(channel=ALL) == better.pk
    # A new viewer within the time is given the kept pick, without ranking again:
    # the frame's reads alone.
    with django_assert_max_num_queries(3):
        assert tv_now(channel=ALL)["table"] == first.pk
    # The kept game ended: the next viewer gets the best live one at once.
    Table.objects.filter(pk=first.pk).update(status=Table.Status.FINISHED)
    now = tv_now(channel=ALL)
    assert (now["table"], now["live"]) == (better.pk, True)
    assert tv_now(channel=ALL)["table"] == better.pk
    cache.delete_many([f"tv:pick:{ALL}", "tv:pick:draw"])


def test_a_table_tv_does_not_show_cannot_be_asked_for(make_user, queued):
    room = live("friend", "draw", *people(make_user, ("r1", 1500), ("r2", 1500)))
    shown = live("online", "draw", *people(make_user, ("o1", 1500), ("o2", 1500)))
    assert tv_now(channel=ALL, watching=room.pk)["table"] == shown.pk
    assert tv_now(channel="block", watching=shown.pk)["table"] is None


def test_the_pages_and_the_json_are_anyones(client, make_user, queued):
    table = live("online", "draw", *people(make_user, ("a1", 1500), ("a2", 1500)))
    for path in ("/tv/", "/tv/draw/", "/tv/all/"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert b'id="tv-config"' in page.content
    assert client.get("/tv/nonsense/").status_code == 404
    assert client.get("/tv/nonsense/now").status_code == 404
    now = client.get("/tv/all/now")
    assert now.status_code == 200 and now["Cache-Control"] == "no-store"
    assert now.json()["table"] == table.pk
    assert now.json()["frame"]["you"] is None
    assert client.get("/tv/all/now?watching=abc").json()["table"] == table.pk
    assert client.get("/tv/spider/now").json() == {
        "channel": "spider",
        "table": None,
        "live": False,
        "frame": None,
    }


def test_home_and_the_navigation_link_to_tv(client):
    page = client.get("/").content.decode()
    assert 'id="home-tv" href="/tv/"' in page
    assert 'id="nav-tv"' in page
