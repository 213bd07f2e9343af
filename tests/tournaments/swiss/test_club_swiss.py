"""The issue's scenario, end to end on the services: a player starts a club, two
friends join it, the club runs a three-round Swiss with an entry fee, and the
whole pot is paid out to the winner; the ledger and the Swiss audit stay clean."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import JoinRequest
from clubs.services import club_create, club_join, join_request_answer
from economy.selectors import wallet_balance
from friends.services import friend_request_accept, friend_request_send
from tests.economy.conftest import fund
from tests.tournaments.swiss.helpers import (
    assert_sound,
    end_game,
    games_of,
    here,
    start,
)
from tournaments.swiss.models import SwissEntry, SwissEvent
from tournaments.swiss.services import swiss_create, swiss_join

pytestmark = pytest.mark.django_db


def test_a_club_of_friends_runs_a_paid_three_round_swiss(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    for friend in (ben, cy):
        asked = friend_request_send(sender=ana, username=friend.username)
        friend_request_accept(request_id=asked.pk, user=friend)
    club = club_create(
        user=ana, name="Harbour Friends", description="", language="en", open=False
    )
    for friend in (ben, cy):
        club_join(user=friend, slug=club.slug)  # a request: the club is closed
    for asked in JoinRequest.objects.filter(club=club):
        join_request_answer(leader=ana, request_id=asked.pk, accept=True)
    event = swiss_create(
        user=ana,
        club_slug=club.slug,
        name="Harbour Swiss",
        pool="draw-2",
        rounds=3,
        round_minutes=30,
        starts_at=timezone.now() + timedelta(minutes=10),
        entry=250,
        members_only=True,
    )
    for player in (ana, ben, cy):
        fund(player.pk, 1000)
        swiss_join(user=player, event_id=event.pk)
        here(event, player)
    for number in (1, 2, 3):
        start(event, number)
        for game in games_of(event, number):
            if game.second_id:
                end_game(game, winner=game.first)
    event.refresh_from_db()
    assert event.state == SwissEvent.State.FINISHED
    entries = {e.user_id: e for e in SwissEntry.objects.filter(event=event)}
    winner = next(uid for uid, e in entries.items() if e.rank == 1)
    assert [e.payout for e in entries.values() if e.user_id != winner] == [0, 0]
    assert entries[winner].payout == 750  # the whole pot, no commission
    total = sum(wallet_balance(user_id=p.pk) for p in (ana, ben, cy))
    assert total == 3000  # nothing created or lost
    assert wallet_balance(user_id=winner) == 1000 - 250 + 750
    assert_sound()
