"""Bots are rated apart: a table of bots under ``bot:<variant>``; were bots and
people ever at one rated table, each kind only among its own kind."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import BotAccount
from games.signals import SeatResult
from matchmaking.pools.models import Rating, RatingChange
from matchmaking.pools.ratings import ratings_apply

pytestmark = pytest.mark.django_db


def _result(position: int, user_id: int, place: int) -> SeatResult:
    return SeatResult(
        position=position,
        user_id=user_id,
        bot_level="",
        simulated=False,
        team=None,
        place=place,
        score=0,
        forfeited=False,
    )


def test_each_kind_is_rated_among_its_own(make_user):
    ana, ben, alpha, beta = (make_user(n) for n in ("ana", "ben", "alpha", "beta"))
    BotAccount.objects.bulk_create([BotAccount(user=alpha), BotAccount(user=beta)])
    results = [
        _result(0, alpha.pk, 1),
        _result(1, ana.pk, 2),
        _result(2, beta.pk, 3),
        _result(3, ben.pk, 4),
    ]
    after = ratings_apply(table_id=7, mode="online", variant="draw", results=results)
    assert set(after) == {ana.pk, ben.pk, alpha.pk, beta.pk}
    keys = dict(Rating.objects.values_list("user_id", "variant"))
    assert keys == {
        ana.pk: "draw",
        ben.pk: "draw",
        alpha.pk: "bot:draw",
        beta.pk: "bot:draw",
    }
    # Ana beat Ben and Alpha beat Beta, each pair on its own.
    assert after[ana.pk].mu > after[ben.pk].mu
    assert after[alpha.pk].mu > after[beta.pk].mu
    assert RatingChange.objects.count() == 4
    again = ratings_apply(table_id=7, mode="online", variant="draw", results=results)
    assert again == {}
    assert RatingChange.objects.count() == 4


def test_a_lone_bot_among_computers_is_not_rated(make_user):
    alpha = make_user("alpha")
    BotAccount.objects.create(user=alpha)
    computer = SeatResult(
        position=1,
        user_id=None,
        bot_level="hard",
        simulated=True,
        team=None,
        place=2,
        score=0,
        forfeited=False,
    )
    after = ratings_apply(
        table_id=8,
        mode="online",
        variant="draw",
        results=[_result(0, alpha.pk, 1), computer],
    )
    assert after == {}
    assert not Rating.objects.exists()


def test_a_bots_profile_names_its_ratings_among_bots(client, make_user):
    alpha = make_user("alpha")
    BotAccount.objects.create(user=alpha)
    Rating.objects.create(user=alpha, variant="bot:draw", mu=25, sigma=8, tables=1)
    page = client.get(reverse("player-profile", args=["alpha"])).content.decode()
    assert "Draw, among bots" in page
    assert "bot:draw" not in page
    assert reverse("leaderboard", args=["draw"]) not in page
