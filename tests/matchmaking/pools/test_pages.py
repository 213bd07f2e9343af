"""The lobby, leaderboard and profile pages; blocking from a profile."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matchmaking.models import Block, Rating, RatingChange

pytestmark = pytest.mark.django_db


def test_home_links_to_the_lobby_first(client):
    html = client.get("/").content.decode()
    nav = html[html.index("<nav") : html.index("</nav>")]
    main = html[html.index("<main") :]
    for part in (nav, main):
        assert part.index('href="/play/online/"') < part.index('href="/play/"')


def test_the_lobby_lists_every_pool_with_a_find_button(client, make_user, settings):
    client.force_login(make_user("ana"))
    html = client.get("/play/online/").content.decode()
    for pool in settings.MATCHMAKING_POOLS:
        assert f'data-pool="{pool["key"]}"' in html
    assert html.count("Find a table") >= len(settings.MATCHMAKING_POOLS)
    assert 'id="lobby-strings"' in html and "js/lobby.js" in html


def test_the_lobby_needs_a_sign_in(client):
    assert client.get("/play/online/").status_code == 302


def rated(user, variant, mus, sigma=4.0):
    Rating.objects.create(
        user=user, variant=variant, mu=mus[-1], sigma=sigma, tables=len(mus)
    )
    prev = 25.0
    for i, mu in enumerate(mus):
        RatingChange.objects.create(
            user=user,
            table_id=1000 + i,
            variant=variant,
            mu_before=prev,
            sigma_before=5,
            mu_after=mu,
            sigma_after=5,
        )
        prev = mu


def test_the_leaderboard_shows_settled_players_best_first(client, make_user):
    top, mid, new = make_user("top"), make_user("mid"), make_user("newbie")
    rated(top, "draw", [26.0] * 11 + [30.0])
    rated(mid, "draw", [25.0] * 12)
    rated(new, "draw", [40.0] * 3)  # provisional: three tables
    html = client.get(reverse("leaderboard", args=["draw"])).content.decode()
    assert html.index(">top<") < html.index(">mid<")
    assert "newbie" not in html
    assert ">1700<" in html  # 1500 + (30 - 25) * 40
    assert client.get("/leaderboard/chess/").status_code == 404


def test_the_profile_shows_ratings_and_a_history_chart(client, make_user):
    ana = make_user("ana")
    rated(ana, "draw", [26.0, 27.0, 24.0])
    client.force_login(ana)
    html = client.get("/profile/").content.decode()
    assert "1460?" in html  # provisional: three tables
    assert "<svg" in html and "<polyline" in html


def test_a_player_blocks_and_unblocks_another_from_the_profile(client, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    page = client.get("/players/ben/").content.decode()
    assert "/players/ben/block/" in page and "ben@example.com" not in page
    client.post("/players/ben/block/")
    assert Block.objects.filter(blocker=ana, blocked=ben).exists()
    assert "/players/ben/unblock/" in client.get("/players/ben/").content.decode()
    client.post("/players/ben/unblock/")
    assert not Block.objects.exists()


def test_blocking_oneself_or_nobody_is_refused_clearly(client, make_user):
    client.force_login(make_user("ana"))
    reply = client.post("/players/ana/block/", follow=True).content.decode()
    assert "You cannot block yourself." in reply
    assert client.get("/players/ghost/").status_code == 404
    assert not Block.objects.exists()


def test_the_lobby_shows_the_last_rating_change(client, make_user):
    ana = make_user("ana")
    rated(ana, "draw", [25.35])  # +14 on the displayed scale
    client.force_login(ana)
    html = client.get("/play/online/").content.decode()
    assert "<strong>+14</strong>" in html
    assert client.get("/play/online/tables/1000/rating.json").json() == {"change": 14}
