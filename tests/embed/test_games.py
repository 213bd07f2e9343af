"""Embedded games as services: no coins or XP, the purge, guests listed nowhere."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone

from economy.models import Entry, XpAward
from economy.selectors import player_xp, wallet_balance
from embed.errors import EmbedError
from embed.models import EmbedGame
from embed.params import choice_from
from embed.services import embed_game_create, embed_game_find, embed_games_purge
from embed.tasks import embed_purge_task
from friends.errors import FriendError
from friends.services import friend_request_send
from games.expiry import practice_tables_expire
from games.finish import finish_steps_sweep
from games.models import FinishStep, Table, TableEvent
from matchmaking.rooms.selectors import usernames_matching
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def new_game(**data: str):
    return embed_game_create(choice=choice_from(data), address="192.0.2.1")


def test_an_embedded_game_played_to_the_end_pays_no_coins_or_xp():
    started = new_game(variant="draw", target="50", speed="instant")
    game = started.game
    table = drive(game.table_id, {0: game.guest}, rng=random.Random(7))
    assert table.status == Table.Status.FINISHED
    finish_steps_sweep()
    guest = game.guest
    assert wallet_balance(user_id=guest.pk) == 0
    assert player_xp(user_id=guest.pk) == 0
    assert not XpAward.objects.filter(user=guest).exists()
    assert not Entry.objects.filter(account__user=guest).exists()
    # Nothing is owed by the finish: practice tables pay nothing anywhere.
    assert not FinishStep.objects.filter(table_id=table.pk).exists()


def test_a_token_finds_its_game_and_nothing_else():
    one, two = new_game(), new_game()
    assert embed_game_find(token=one.token).pk == one.game.pk
    assert embed_game_find(token=two.token).pk == two.game.pk
    with pytest.raises(EmbedError) as refused:
        embed_game_find(token=one.token[:-1])
    assert refused.value.code == "bad_token"


def test_guests_are_listed_nowhere(client, make_user):
    game = new_game().game
    guest = game.guest
    player = make_user("realplayer")
    client.force_login(player)
    assert client.get(f"/players/{guest.username}/").status_code == 404
    assert client.get(f"/players/{player.username}/").status_code == 200
    assert usernames_matching(prefix="Guest", user=player) == []
    with pytest.raises(FriendError):
        friend_request_send(sender=player, username=guest.username)
    assert not guest.is_active


def test_the_purge_deletes_ended_games_and_their_guests():
    now = timezone.now()
    ended_long_ago = new_game().game
    ended_now = new_game().game
    live = new_game().game
    Table.objects.filter(pk=ended_long_ago.table_id).update(
        status=Table.Status.FINISHED, finished_at=now - timedelta(days=1)
    )
    Table.objects.filter(pk=ended_now.table_id).update(
        status=Table.Status.CANCELLED, finished_at=now
    )
    assert embed_games_purge(now=now) == 1
    assert not Table.objects.filter(pk=ended_long_ago.table_id).exists()
    assert not TableEvent.objects.filter(table_id=ended_long_ago.table_id).exists()
    assert not User.objects.filter(pk=ended_long_ago.guest_id).exists()
    assert EmbedGame.objects.filter(pk__in=[ended_now.pk, live.pk]).count() == 2
    assert User.objects.filter(pk=live.guest_id).exists()
    # Purging again changes nothing.
    assert embed_games_purge(now=now) == 0


def test_idle_games_expire_like_practice_tables_and_are_purged_after():
    game = new_game().game
    later = timezone.now() + timedelta(days=2)
    assert practice_tables_expire(now=later) == 1
    table = Table.objects.get(pk=game.table_id)
    assert table.status == Table.Status.CANCELLED
    Table.objects.filter(pk=table.pk).update(finished_at=later - timedelta(days=1))
    assert embed_games_purge(now=later) == 1
    assert not User.objects.filter(pk=game.guest_id).exists()


def test_a_guest_whose_table_went_another_way_is_purged():
    started = new_game()
    game = started.game
    Table.objects.filter(pk=game.table_id).delete()
    assert EmbedGame.objects.get(pk=game.pk).table_id is None
    with pytest.raises(EmbedError):
        embed_game_find(token=started.token)
    assert embed_games_purge() == 1
    assert not User.objects.filter(pk=game.guest_id).exists()


def test_the_purge_task_runs_the_purge(settings):
    game = new_game().game
    Table.objects.filter(pk=game.table_id).update(
        status=Table.Status.FINISHED,
        finished_at=timezone.now() - timedelta(days=2),
    )
    embed_purge_task()
    assert not EmbedGame.objects.filter(pk=game.pk).exists()
    assert settings.CELERY_BEAT_SCHEDULE["embed-purge"]["task"] == "embed.purge"
    # The worker finds it by name (the embedded in-process worker included).
    from config.celery import app

    app.loader.import_default_modules()
    assert "embed.purge" in app.tasks


def test_real_inactive_accounts_are_never_purged(make_user):
    closed = make_user("Guest-deadbeef")
    closed.is_active = False
    closed.save()
    game = new_game().game
    Table.objects.filter(pk=game.table_id).delete()
    embed_games_purge()
    assert User.objects.filter(pk=closed.pk).exists()
