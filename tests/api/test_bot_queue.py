"""Rated games among bots: the bots' queue pairs bots only, backfills with the
site's labelled computers after the backfill time, rates bots under their own key,
pays nothing; bot accounts are refused (in words) by every entry with coins or
standings and by the site's ways to a table."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import BotAccount
from api.bot_models import BotSeek
from api.bot_queue import BotQueueError, bot_queue_pair_all, bot_ratings, bot_seek
from api.tokens import token_create
from economy.audit import ledger_audit
from economy.models import Entry, XpAward
from games.models import Seat, Table
from games.services import table_practice_create
from matchmaking.audit import unearned_minting_audit
from matchmaking.errors import StakeError
from matchmaking.pools.models import Rating, RatingChange
from tests.support.tables import drive
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.services import arena_join
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.services import sitgo_enter
from tournaments.swiss.errors import SwissError
from tournaments.swiss.services import swiss_join

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


@pytest.fixture
def make_bot(make_user):
    def make(name):
        user = make_user(name)
        BotAccount.objects.create(user=user)
        return user

    return make


def test_two_bots_meet_at_one_rated_table(make_bot):
    alpha, beta = make_bot("alpha"), make_bot("beta")
    first = bot_seek(user_id=alpha.pk, pool="draw-2")
    assert first.table_id is None  # alone, within the backfill time
    second = bot_seek(user_id=beta.pk, pool="draw-2")
    assert second.table_id is not None
    table = Table.objects.get(pk=second.table_id)
    assert table.mode == Table.Mode.ONLINE
    seats = list(Seat.objects.filter(table=table))
    assert {s.user_id for s in seats} == {alpha.pk, beta.pk}
    assert all(s.program for s in seats)
    assert BotSeek.objects.get(pk=alpha.pk).table_id == table.pk


def test_a_repeated_seek_answers_the_same_table(make_bot):
    alpha, beta = make_bot("alpha"), make_bot("beta")
    bot_seek(user_id=alpha.pk, pool="draw-2")
    table_id = bot_seek(user_id=beta.pk, pool="draw-2").table_id
    for _ in range(3):
        assert bot_seek(user_id=alpha.pk, pool="draw-2").table_id == table_id
        assert bot_seek(user_id=beta.pk, pool="draw-2").table_id == table_id
    assert Table.objects.count() == 1


def test_a_person_never_uses_the_bots_queue(make_user):
    ana = make_user("ana")
    with pytest.raises(BotQueueError) as err:
        bot_seek(user_id=ana.pk, pool="draw-2")
    assert err.value.status == 403
    assert "Only bot accounts" in err.value.message
    assert not BotSeek.objects.exists()


def test_an_unknown_pool_is_refused(make_bot):
    alpha = make_bot("alpha")
    with pytest.raises(BotQueueError) as err:
        bot_seek(user_id=alpha.pk, pool="nope")
    assert err.value.status == 400
    assert not BotSeek.objects.exists()


def test_a_lone_bot_is_backfilled_with_labelled_computers(make_bot, settings):
    alpha = make_bot("alpha")
    bot_seek(user_id=alpha.pk, pool="draw-4p")
    assert bot_queue_pair_all() == 0  # nothing to do yet: no table, no write
    later = timezone.now() + timedelta(
        seconds=settings.MATCHMAKING_BACKFILL_SECONDS + 1
    )
    assert bot_queue_pair_all(now=later) == 1
    seek = BotSeek.objects.get(pk=alpha.pk)
    seats = list(Seat.objects.filter(table_id=seek.table_id))
    assert len(seats) == 4
    others = [s for s in seats if s.user_id != alpha.pk]
    assert all(s.simulated and s.user_id is None for s in others)


def test_bots_are_rated_apart_and_earn_nothing(
    make_bot, client, django_capture_on_commit_callbacks
):
    alpha, beta = make_bot("alpha"), make_bot("beta")
    bot_seek(user_id=alpha.pk, pool="draw-2")
    table_id = bot_seek(user_id=beta.pk, pool="draw-2").table_id
    Table.objects.filter(pk=table_id).update(hand_pause_seconds=0)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table_id, {0: alpha, 1: beta}, rng=random.Random(7))
    assert table.status == Table.Status.FINISHED
    keys = set(Rating.objects.values_list("variant", flat=True))
    assert keys == {"bot:draw"}
    assert set(RatingChange.objects.values_list("variant", flat=True)) == {"bot:draw"}
    assert set(bot_ratings(user_id=alpha.pk)) == {"draw"}
    assert not Entry.objects.filter(account__user__in=[alpha, beta]).exists()
    assert not XpAward.objects.filter(user__in=[alpha, beta]).exists()
    assert set(Seat.objects.filter(table=table).values_list("unpaid", flat=True)) == {
        "bot"
    }
    assert ledger_audit() == []
    assert unearned_minting_audit() == []
    from leagues.models import Membership, PointEntry

    assert not PointEntry.objects.exists()
    assert not Membership.objects.exists()
    page = client.get(reverse("player-profile", args=["alpha"]))
    assert page.status_code == 200
    assert "Draw, among bots" in page.content.decode()
    # Seated at a finished table, a new seek queues the bot again.
    assert bot_seek(user_id=alpha.pk, pool="draw-2").table_id is None


def test_the_seek_endpoint(make_bot, make_user, client):
    alpha, beta = make_bot("alpha"), make_bot("beta")
    _t, secret_a = token_create(owner=alpha, name="a", scopes=["bot"])
    _t, secret_b = token_create(owner=beta, name="b", scopes=["bot"])
    url = reverse("api-bot-seek")
    waiting = client.post(
        url,
        data='{"pool": "draw-2"}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret_a}",
    )
    assert waiting.status_code == 202, waiting.content
    assert waiting.json()["table"] is None
    paired = client.post(
        url,
        data='{"pool": "draw-2"}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret_b}",
    )
    assert paired.status_code == 200
    assert paired.json()["table"] is not None
    ana = make_user("ana")
    _t, secret_p = token_create(owner=ana, name="p", scopes=["play"])
    person = client.post(
        url,
        data='{"pool": "draw-2"}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret_p}",
    )
    assert person.status_code == 403
    assert "Only bot accounts" in person.json()["error"]


def test_entries_with_coins_or_standings_refuse_a_bot_in_words(make_bot):
    robo = make_bot("robo")
    words = "A bot account cannot enter"
    with pytest.raises(StakeError) as stake:
        from matchmaking.stakes.services import stake_sit

        stake_sit(user=robo, stake=100, shape="draw-4p")
    assert words in stake.value.message
    with pytest.raises(SitGoError) as sitgo:
        sitgo_enter(user=robo, size=4, entry=10)
    assert words in sitgo.value.message
    with pytest.raises(ArenaError) as arena:
        arena_join(arena_id=1, user=robo)
    assert words in arena.value.message
    with pytest.raises(SwissError) as swiss:
        swiss_join(user=robo, event_id=1)
    assert words in swiss.value.message
    assert not Entry.objects.filter(account__user=robo).exists()


def test_the_site_refuses_a_bot_a_room_in_words(make_bot, client):
    robo = make_bot("robo")
    client.force_login(robo)
    response = client.post(reverse("room-new"), {"variant": "draw", "seats": 2})
    assert response.status_code == 400
    assert "plays only through the API" in response.content.decode()
    assert not Table.objects.exists()


def test_the_site_refuses_a_bot_a_practice_table_and_a_rematch_in_words(
    make_bot, client
):
    robo = make_bot("robo")
    client.force_login(robo)
    form = {"variant": "draw", "set_max": "6", "seats": "2", "target": "100"}
    form |= {"bot_speed": "fast", "bot_1": "easy"}
    response = client.post(reverse("play"), form)
    assert response.status_code == 400
    assert "plays only through the API" in response.content.decode()
    assert not Table.objects.exists()
    # A practice game it played through the API, ended: no rematch from the site.
    table = table_practice_create(user=robo, variant="draw", bot_levels=["easy"])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    response = client.post(reverse("table-rematch", args=[table.pk]), follow=True)
    assert "plays only through the API" in response.content.decode()
    assert list(Table.objects.values_list("pk", flat=True)) == [table.pk]


def test_a_waiting_bot_leaves_the_queue_and_a_paired_one_keeps_its_table(
    make_bot, client
):
    alpha, beta, gamma = make_bot("alpha"), make_bot("beta"), make_bot("gamma")
    secrets = {
        bot.username: token_create(owner=bot, name="t", scopes=["bot"])[1]
        for bot in (alpha, beta, gamma)
    }

    def cancel(name):
        return client.post(
            reverse("api-bot-seek-cancel"), HTTP_AUTHORIZATION=f"Bearer {secrets[name]}"
        ).json()["cancelled"]

    bot_seek(user_id=alpha.pk, pool="draw-2")
    assert cancel("alpha") is True
    assert cancel("alpha") is False
    # Alpha left: Beta waits alone, and Gamma meets Beta, not Alpha.
    bot_seek(user_id=beta.pk, pool="draw-2")
    table_id = bot_seek(user_id=gamma.pk, pool="draw-2").table_id
    assert table_id is not None
    assert set(
        Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True)
    ) == {
        beta.pk,
        gamma.pk,
    }
    assert cancel("beta") is False
    assert bot_seek(user_id=beta.pk, pool="draw-2").table_id == table_id
