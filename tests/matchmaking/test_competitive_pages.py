"""What a competitive player reads on the lobby, the leaderboard, the stake lobby and
a finished table (issue 31): ratings with their "?", what a table paid, the way to
the next table, names instead of ids, pool shapes, a held seat."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from economy.selectors import player_xp, wallet_balance
from games.models import FinishStep, Table
from matchmaking.models import Rating, Search, StakeTable
from matchmaking.pools.config import pool_get, pools_all
from matchmaking.stakes import services as stakes
from tests.matchmaking.pools.test_pages import rated
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixtures
    expiries_fixture,
    fund,
)
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


def finished_online(make_user, django_capture_on_commit_callbacks, **kw):
    table, ana, ben = two_human_table(make_user, mode="online", target=50, **kw)
    for user in (ana, ben):
        Search.objects.create(
            user=user,
            pool="draw-2",
            rating=1500,
            status=Search.Status.SEATED,
            seated_table_id=table.pk,
            started_at=timezone.now(),
            seen_at=timezone.now(),
        )
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    assert table.status == Table.Status.FINISHED
    return table, ana, ben


# --- the match result: rating, change, coins and XP --------------------------


def test_the_outcome_gives_the_new_rating_with_its_question_mark_coins_and_xp(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    body = client.get(reverse("table-outcome", args=[table.pk])).json()
    assert body["pending"] is False
    assert body["rating"].endswith("?")  # one rated table: provisional
    points = int(body["rating"].rstrip("?"))
    assert points - body["change"] == 1500
    assert body["coins"] > 0 and body["xp"] == player_xp(user_id=ana.pk) > 0


def test_the_outcome_is_pending_while_a_finish_step_has_not_applied(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    FinishStep.objects.filter(table_id=table.pk).update(done_at=None)
    client.force_login(ana)
    assert client.get(reverse("table-outcome", args=[table.pk])).json()["pending"]


def test_the_outcome_is_only_for_the_tables_own_players(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, _ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(make_user("cleo"))
    assert client.get(reverse("table-outcome", args=[table.pk])).status_code == 404


# --- after the match: another table, the lobby -------------------------------


def test_a_finished_online_table_offers_another_table_and_the_lobby(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert reverse("table-again", args=[table.pk]) in html
    assert "Find another table" in html and "Back to the lobby" in html
    assert "New game" not in html


def test_a_friend_table_still_offers_a_new_game(client, make_user):
    table, ana, _ben = two_human_table(make_user, mode="friend")
    client.force_login(ana)
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "New game" in html and "Find another table" not in html


def test_find_another_table_searches_the_same_pool(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks, no_wave_tasks
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    reply = client.post(reverse("table-again", args=[table.pk]))
    assert reply.status_code == 302 and reply["Location"] == "/play/online/?searching=1"
    search = Search.objects.get(user=ana, status=Search.Status.WAITING)
    assert search.pool == "draw-2"


def test_find_another_table_is_refused_to_a_stranger(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, _ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(make_user("cleo"))
    assert client.post(reverse("table-again", args=[table.pk])).status_code == 404
    assert not Search.objects.filter(status=Search.Status.WAITING).exists()


def test_another_stake_table_goes_through_the_stake_books(client, make_user):
    ana = make_user("ana")
    fund(ana.pk, 1000)
    row = stakes.stake_sit(user=ana, stake=100, shape="block-2")
    StakeTable.objects.filter(pk=row.pk).update(state=StakeTable.State.SETTLED)
    Table.objects.filter(pk=row.pk).update(status=Table.Status.FINISHED)
    from matchmaking.models import StakeSitter

    StakeSitter.objects.filter(user=ana).delete()
    client.force_login(ana)
    before = wallet_balance(user_id=ana.pk)
    html = client.get(reverse("table", args=[row.pk])).content.decode()
    assert reverse("stake-again", args=[row.pk]) in html
    assert reverse("stakes") in html and "New game" not in html
    client.post(reverse("stake-again", args=[row.pk]))
    again = StakeTable.objects.exclude(pk=row.pk).get()
    assert (again.stake, again.shape) == (100, "block-2")
    assert wallet_balance(user_id=ana.pk) == before - 100


# --- the leaderboard ------------------------------------------------------------


def test_the_leaderboard_shows_a_new_players_own_standing(client, make_user):
    ana = make_user("ana")
    rated(ana, "draw", [27.625])  # 1605 after one table
    client.force_login(ana)
    html = client.get(reverse("leaderboard", args=["draw"])).content.decode()
    assert 'id="leaderboard-you"' in html
    assert "<strong>1605?</strong>, 1 of 10 rated tables" in html


def test_the_leaderboard_lists_only_variants_with_a_pool(client):
    html = client.get(reverse("leaderboard", args=["draw"])).content.decode()
    nav = html[html.index('class="leaderboard-variants"') :]
    nav = nav[: nav.index("</nav>")]
    pooled = {p.variant for p in pools_all()}
    for variant in pooled:
        assert reverse("leaderboard", args=[variant]) in nav
    assert reverse("leaderboard", args=["cross"]) not in nav


# --- the lobby ------------------------------------------------------------------


def test_the_lobby_names_variants_not_ids(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    cleo = make_user("cleo")
    rated(cleo, "block", [25.35])
    live, _x, _y = two_human_table(make_user, mode="online", variant="all_fives")
    client.force_login(cleo)
    html = client.get(reverse("lobby")).content.decode()
    assert "Your last rated table (Block)" in html
    tables = html[html.index('id="lobby-tables"') :]
    assert f'/tables/{live.pk}/">All Fives: ' in tables


def test_pool_cards_show_my_rating_target_length_and_clock(client, make_user):
    ana = make_user("ana")
    Rating.objects.create(user=ana, variant="draw", mu=27.625, sigma=4.0, tables=12)
    client.force_login(ana)
    html = client.get(reverse("lobby")).content.decode()
    card = html[html.index('data-pool="draw-2"') :]
    card = card[: card.index("</li>")]
    assert '<dd data-field="rating">1605</dd>' in card
    assert "100 points · about 9 hands" in card
    clock = settings.MATCHMAKING_CLOCK_SECONDS
    assert f"{clock} seconds" in card
    block = html[html.index('data-pool="block-2"') :]
    assert '<dd data-field="rating">1500?</dd>' in block[: block.index("</li>")]
    assert 'data-count="online"' in html and reverse("room-new") in html


def test_a_held_seat_shows_a_game_in_progress_banner(client, make_user):
    table, ana, _ben = two_human_table(make_user, mode="online")
    client.force_login(ana)
    html = client.get(reverse("lobby")).content.decode()
    banner = html[html.index('id="lobby-status"') :]
    banner = banner[: banner.index("</p>")]
    assert "hidden" not in banner and "Game in progress" in banner
    assert f'href="/tables/{table.pk}/"' in banner


# --- the pools' shapes -----------------------------------------------------------


def test_every_pool_says_how_many_hands_a_match_takes():
    pools = {p.key: p for p in pools_all()}
    assert all(p.hands for p in pools.values())
    assert pools["block-2"].target == 50  # to 100: 26 hands of blocked differences


# --- the stake lobby ------------------------------------------------------------


def test_the_stake_lobby_shows_balance_payout_wait_and_styled_errors(client, make_user):
    ana = make_user("ana")
    fund(ana.pk, 1234)
    client.force_login(ana)
    html = client.get(reverse("stakes")).content.decode()
    balance = html[html.index('id="stakes-balance"') :]
    assert "1,234 coins" in balance[: balance.index("</dd>")] or "1234" in balance
    assert "The winner takes 200 coins, no commission." in html
    assert "pays the winning pair 1,000 coins (500 each)" in html
    wait = html[html.index('id="stakes-wait"') :]
    assert f"{settings.STAKE_FILL_SECONDS} seconds" in wait[: wait.index("</dd>")]
    error = html[html.index('id="stakes-error"') - 60 :]
    assert 'class="msg error"' in error[: error.index(">") + 60]


# --- a rematch both players accept ----------------------------------------------


def test_a_rematch_seats_both_players_once_both_have_offered(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = finished_online(make_user, django_capture_on_commit_callbacks)
    url = reverse("table-rematch-offer", args=[table.pk])
    client.force_login(ana)
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert f'action="{url}"' in html and "Offer a rematch" in html
    first = client.post(url).json()
    assert first == {"available": True, "offered": [], "mine": True, "table": None}
    client.force_login(ben)
    assert client.get(url).json()["offered"] == ["ana"]
    with django_capture_on_commit_callbacks(execute=True):
        second = client.post(url).json()
    new = Table.objects.get(pk=second["table"])
    assert new.mode == Table.Mode.ONLINE and new.status == Table.Status.PLAYING
    assert {s.user_id for s in new.seats.all()} == {ana.pk, ben.pk}
    assert new.options["target"] == pool_get("draw-2").target  # the pool's shape
    seated = Search.objects.filter(seated_table_id=new.pk, pool="draw-2")
    assert seated.count() == 2
    client.force_login(ana)
    assert client.get(url).json()["table"] == new.pk
    assert client.post(url).json()["table"] == new.pk  # one table, however asked


def test_no_rematch_with_a_computer_or_for_a_stranger(
    client, make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    url = reverse("table-rematch-offer", args=[table.pk])
    client.force_login(make_user("cleo"))
    assert client.post(url).status_code == 400
    assert client.get(url).json()["available"] is False
    table.seats.filter(position=1).update(user=None, simulated=True, bot_level="hard")
    client.force_login(ana)
    assert client.get(url).json()["available"] is False
    assert client.post(url).json()["error"]["code"] == "no_rematch"


def test_a_searching_player_cancels_the_search_before_a_rematch(
    client,
    make_user,
    queued,
    pushes,
    django_capture_on_commit_callbacks,
    no_wave_tasks,
):
    table, ana, _ben = finished_online(make_user, django_capture_on_commit_callbacks)
    client.force_login(ana)
    client.post(reverse("table-again", args=[table.pk]))
    reply = client.post(reverse("table-rematch-offer", args=[table.pk]))
    assert reply.json()["error"]["code"] == "already_searching"
