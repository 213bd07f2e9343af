"""A finished table pays its players once, by mode (RULES.md §5)."""

from __future__ import annotations

import random

import pytest

from economy.selectors import player_xp, wallet_balance
from games.finish import consequence, finish_notice, finish_step_apply
from games.models import Table
from games.services import (
    table_practice_create,
)
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


def play_out(make_user, mode, django_capture_on_commit_callbacks):
    table, ana, ben = two_human_table(make_user, mode=mode, target=50)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(4))
    assert table.status == Table.Status.FINISHED
    places = dict(table.seats.values_list("user_id", "place"))
    winner = ana if places[ana.pk] == 1 else ben
    loser = ben if winner is ana else ana
    return table, winner, loser


def test_online_pays_every_position_from_most_to_least(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, winner, loser = play_out(
        make_user, "online", django_capture_on_commit_callbacks
    )
    assert wallet_balance(user_id=winner.pk) > wallet_balance(user_id=loser.pk) > 0
    assert player_xp(user_id=winner.pk) > player_xp(user_id=loser.pk) > 0


def test_friend_room_pays_only_the_winner_at_half_rate(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, winner, loser = play_out(
        make_user, "friend", django_capture_on_commit_callbacks
    )
    friend = wallet_balance(user_id=winner.pk)
    assert friend > 0
    assert wallet_balance(user_id=loser.pk) == 0
    assert player_xp(user_id=loser.pk) == 0
    # The finish owed it once: the step is done, and applying the rewards again
    # by hand pays nothing more.
    assert not finish_step_apply(table_id=table.pk, name="rewards")
    consequence("rewards").apply(finish_notice(table.pk))
    assert wallet_balance(user_id=winner.pk) == friend


def test_practice_pays_nothing(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    user = make_user()
    table = table_practice_create(
        user=user,
        variant="block",
        options={"target": 50},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    with django_capture_on_commit_callbacks(execute=True):
        drive(table.pk, {0: user}, rng=random.Random(2))
    assert wallet_balance(user_id=user.pk) == 0
    assert player_xp(user_id=user.pk) == 0
