"""Swiss events end to end on the services: scheduling by a club's leader, joining
(late up to round 2, club-only), withdrawing, rounds at their times pairing the
players present, byes and absences, results and forfeits, replays after a fault,
the finish with tie-breaks, and an entry fee's pot paid out whole or refunded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.services import club_create, club_join
from economy.models import Transaction
from economy.selectors import wallet_balance
from games.models import Table
from games.services import table_cancel
from tests.economy.conftest import fund, snapshot
from tests.tournaments.swiss.helpers import (
    assert_sound,
    end_game,
    event_of,
    games_of,
    here,
    start,
)
from tournaments.swiss.errors import SwissError
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame
from tournaments.swiss.rounds import swiss_advance, swiss_sweep
from tournaments.swiss.services import (
    swiss_create,
    swiss_join,
    swiss_staff_cancel,
    swiss_withdraw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_user):
    """A leader and five more players."""
    return [make_user(n) for n in ("lea", "ana", "ben", "cy", "dan", "eve")]


def refused(code, fn, **kwargs):
    with pytest.raises(SwissError) as caught:
        fn(**kwargs)
    assert caught.value.code == code, caught.value.code
    assert caught.value.message
    return caught.value


# --- scheduling


def test_only_a_clubs_leader_schedules_and_every_field_is_checked(field):
    lea, ana = field[0], field[1]
    club = club_create(
        user=lea, name="Harbour", description="", language="en", open=True
    )
    club_join(user=ana, slug=club.slug)
    good = {
        "club_slug": club.slug,
        "name": "Friday Swiss",
        "pool": "draw-2",
        "rounds": "5",
        "round_minutes": "30",
        "starts_at": timezone.now() + timedelta(hours=1),
    }
    refused("not_leader", swiss_create, user=ana, **good)
    refused("not_leader", swiss_create, user=lea, **{**good, "club_slug": "nowhere"})
    cases = [
        ("name_length", {"name": "ab"}),
        ("name_word", {"name": "Admin Cup"}),
        ("bad_pool", {"pool": "draw-4p"}),
        ("bad_pool", {"pool": "no-such"}),
        ("bad_rounds", {"rounds": "0"}),
        ("bad_rounds", {"rounds": "12"}),
        ("bad_rounds", {"rounds": "x"}),
        ("bad_minutes", {"round_minutes": "5"}),
        ("bad_start", {"starts_at": timezone.now()}),
        ("bad_start", {"starts_at": timezone.now() + timedelta(days=40)}),
        ("bad_start", {"starts_at": None}),
        ("bad_entry", {"entry": "7"}),
    ]
    for code, change in cases:
        refused(code, swiss_create, user=lea, **{**good, **change})
    assert not SwissEvent.objects.exists()
    event = swiss_create(user=lea, **good, entry="100", members_only=True)
    assert (event.rounds, event.round_minutes, event.entry, event.variant) == (
        5,
        30,
        100,
        "draw",
    )
    assert event.members_only and event.club == club and event.state == "scheduled"


# --- joining and withdrawing


def test_joining_late_up_to_round_two_and_never_twice(field):
    lea, ana, ben, cy, dan, eve = field
    event = event_of(lea)
    for user in (lea, ana, ben):
        swiss_join(user=user, event_id=event.pk)
    refused("entered", swiss_join, user=ana, event_id=event.pk)
    refused("no_event", swiss_join, user=ana, event_id=0)
    here(event, lea, ana, ben)
    start(event, 1)
    late = swiss_join(user=cy, event_id=event.pk)
    assert late.joined_round == 2
    for game in games_of(event, 1):
        if game.second_id:
            end_game(game, winner=game.first)
    start(event, 2)
    refused("closed", swiss_join, user=dan, event_id=event.pk)
    # The late joiner was paired from round 2 (present), never in round 1.
    assert cy.pk not in {g.first_id for g in games_of(event, 1)} | {
        g.second_id for g in games_of(event, 1)
    }
    assert cy.pk in {g.first_id for g in games_of(event, 2)} | {
        g.second_id for g in games_of(event, 2)
    }


def test_a_club_only_event_takes_its_members_alone(field):
    lea, ana, ben = field[:3]
    event = event_of(lea, members_only=True)
    refused("members_only", swiss_join, user=ana, event_id=event.pk)
    club_join(user=ana, slug=event.club.slug)
    swiss_join(user=ana, event_id=event.pk)
    assert SwissEntry.objects.filter(event=event).count() == 1


def test_withdrawing_before_the_start_leaves_no_trace_and_after_keeps_the_games(field):
    lea, ana, ben, cy = field[:4]
    event = event_of(lea)
    swiss_join(user=ana, event_id=event.pk)
    swiss_withdraw(user=ana, event_id=event.pk)
    assert not SwissEntry.objects.filter(event=event, user=ana).exists()
    refused("not_entered", swiss_withdraw, user=ana, event_id=event.pk)
    for user in (ana, ben, cy, lea):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben, cy, lea)
    start(event, 1)
    swiss_withdraw(user=ana, event_id=event.pk)
    refused("withdrew", swiss_join, user=ana, event_id=event.pk)
    for game in games_of(event, 1):
        end_game(game, winner=game.first)
    start(event, 2)
    paired = {u for g in games_of(event, 2) for u in (g.first_id, g.second_id)}
    assert ana.pk not in paired  # paired no more, not even as absent
    assert SwissEntry.objects.get(event=event, user=ana).withdrawn_at is not None


# --- the rounds


def test_three_rounds_no_repeat_byes_absences_and_the_final_ranks(field, capsys):
    lea, ana, ben, cy, dan, eve = field
    event = event_of(lea, rounds=3)
    for user in (ana, ben, cy, dan, eve):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben, cy, dan)  # Eve's page is closed at round 1
    swiss_advance(event_id=event.pk, now=event.starts_at - timedelta(seconds=1))
    assert SwissEvent.objects.get(pk=event.pk).state == "scheduled"
    start(event, 1)
    one = games_of(event, 1)
    assert [g.result for g in one] == ["playing", "playing", "absent"]
    assert one[2].first == eve and one[2].points == 0
    for game in one[:2]:
        assert Table.objects.get(pk=game.table_id).mode == "online"
        end_game(game, winner=game.first)
    # Round 2 waits for its time, then pairs the present five (one bye).
    assert not swiss_advance(event_id=event.pk)
    here(event, eve)
    start(event, 2)
    two = games_of(event, 2)
    byes = [g for g in two if g.result == "bye"]
    assert len(byes) == 1 and byes[0].points == 2
    met = {frozenset((g.first_id, g.second_id)) for g in one + two if g.second_id}
    assert len(met) == len([g for g in one + two if g.second_id])  # no repeat
    end_game(next(g for g in two if g.second_id), winner=None)  # a tie
    other = [g for g in two if g.second_id][1]
    end_game(other, forfeit=other.first)
    assert SwissGame.objects.get(pk=other.pk).result == "forfeit"
    assert SwissGame.objects.get(pk=other.pk).points == 0
    start(event, 3)
    three = games_of(event, 3)
    assert byes[0].first_id not in {g.first_id for g in three if g.result == "bye"}
    for game in three:
        if game.result == "playing":
            end_game(game, winner=game.second)
    event.refresh_from_db()
    assert event.state == "finished" and event.finished_at is not None
    ranks = sorted(
        SwissEntry.objects.filter(event=event).values_list("rank", flat=True)
    )
    assert ranks == [1, 2, 3, 4, 5]


def test_an_event_with_fewer_than_two_players_is_cancelled_at_its_start(field):
    lea, ana = field[:2]
    fund(ana.pk, 1000)
    event = event_of(lea, entry=100)
    swiss_join(user=ana, event_id=event.pk)
    assert wallet_balance(user_id=ana.pk) == 900
    start(event, 1)
    event.refresh_from_db()
    assert event.state == "cancelled"
    assert wallet_balance(user_id=ana.pk) == 1000
    assert_sound()


def test_a_game_cancelled_by_a_fault_is_replayed_by_the_same_two(
    field, django_capture_on_commit_callbacks
):
    lea, ana, ben = field[:3]
    event = event_of(lea)
    for user in (ana, ben):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben)
    start(event, 1)
    (game,) = games_of(event, 1)
    old = game.table_id
    with django_capture_on_commit_callbacks(execute=True):
        table_cancel(table_id=old, reason="staff")
    game.refresh_from_db()
    assert game.table_id != old and game.result == "playing"
    assert Table.objects.get(pk=game.table_id).status == Table.Status.PLAYING


def test_the_sweep_starts_due_rounds_and_writes_nothing_otherwise(field):
    lea, ana, ben = field[:3]
    event = event_of(lea, rounds=1)
    for user in (ana, ben):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben)
    assert swiss_sweep() == 0
    assert swiss_sweep(now=event.starts_at) == 1
    assert swiss_sweep(now=event.starts_at) == 0  # the game is in play
    (game,) = games_of(event, 1)
    end_game(game, winner=game.second)
    event.refresh_from_db()
    assert event.state == "finished"
    assert SwissEntry.objects.get(event=event, user=game.second).rank == 1


# --- the entry fee's pot


def test_a_paid_event_pays_its_whole_pot_to_the_winner(field):
    lea, ana, ben, cy = field[:4]
    for user in (ana, ben, cy):
        fund(user.pk, 1000)
    event = event_of(lea, rounds=2, entry=250)
    for user in (ana, ben, cy):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben, cy)
    start(event, 1)
    assert_sound()
    for game in games_of(event, 1):
        if game.second_id:
            end_game(game, winner=game.first)
    start(event, 2)
    for game in games_of(event, 2):
        if game.second_id:
            end_game(game, winner=game.first)
    event.refresh_from_db()
    assert event.state == "finished"
    payouts = dict(
        SwissEntry.objects.filter(event=event).values_list("user_id", "payout")
    )
    assert sorted(payouts.values()) == [0, 0, 750]  # 3 players: 100 % to the first
    winner = next(uid for uid, paid in payouts.items() if paid)
    assert SwissEntry.objects.get(event=event, user_id=winner).rank == 1
    assert wallet_balance(user_id=winner) == 1000 - 250 + 750
    assert (
        Transaction.objects.filter(kind="payout", table_ref=f"swiss-{event.pk}").count()
        == 1
    )
    assert_sound()


def test_nobody_who_played_means_the_pot_is_refunded(field):
    lea, ana, ben = field[:3]
    for user in (ana, ben):
        fund(user.pk, 1000)
    event = event_of(lea, rounds=1, entry=100)
    for user in (ana, ben):
        swiss_join(user=user, event_id=event.pk)
    start(event, 1)  # nobody's page is open: both absent
    event.refresh_from_db()
    assert event.state == "finished"
    assert [wallet_balance(user_id=u.pk) for u in (ana, ben)] == [1000, 1000]
    assert_sound()


def test_paying_refunding_and_refusals_move_coins_once(field):
    lea, ana = field[:2]
    fund(ana.pk, 150)
    event = event_of(lea, entry=250)
    before = snapshot()
    err = refused("not_enough_coins", swiss_join, user=ana, event_id=event.pk)
    assert "100" in err.message
    assert snapshot() == before and not SwissEntry.objects.exists()
    fund(ana.pk, 100)
    swiss_join(user=ana, event_id=event.pk)
    assert wallet_balance(user_id=ana.pk) == 0
    swiss_withdraw(user=ana, event_id=event.pk)
    assert wallet_balance(user_id=ana.pk) == 250
    swiss_join(user=ana, event_id=event.pk)
    assert swiss_staff_cancel(event_id=event.pk) is True
    assert swiss_staff_cancel(event_id=event.pk) is False
    assert wallet_balance(user_id=ana.pk) == 250
    refused("closed", swiss_join, user=ana, event_id=event.pk)
    assert_sound()
