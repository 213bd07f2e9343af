"""Swiss events' money and rounds under real concurrency on PostgreSQL: a player
paying twice at once, a late entry racing round 2's start, a withdrawal racing
the start, two sweeps starting one round, the last game's result applied twice at
once, and the finish racing the staff's cancel. Each coin moves once and the
audit stays clean."""

from __future__ import annotations

import pytest

from economy.models import Transaction
from economy.selectors import wallet_balance
from tests.economy.conftest import fund
from tests.support.threads import in_threads
from tests.tournaments.swiss.helpers import (
    assert_sound,
    end_game,
    event_of,
    games_of,
    here,
)
from tournaments.swiss.errors import SwissError
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame
from tournaments.swiss.rounds import round_starts_at, swiss_advance
from tournaments.swiss.services import swiss_join, swiss_staff_cancel, swiss_withdraw

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def attempt(outcome, label, fn, **kwargs):
    try:
        fn(**kwargs)
        outcome.append((label, "ok"))
    except SwissError as err:
        outcome.append((label, err.code))


def players(make_user, prefix, n, coins=1000):
    made = [make_user(f"{prefix}{i}") for i in range(n)]
    for user in made:
        fund(user.pk, coins)
    return made


def test_one_player_joining_twice_at_once_pays_once(make_user):
    for round_ in range(4):
        lea = make_user(f"lea{round_}")
        (ana,) = players(make_user, f"ana{round_}x", 1)
        event = event_of(lea, entry=250)
        outcome: list = []
        in_threads(
            lambda n, outcome=outcome, event=event, ana=ana: attempt(
                outcome, n, swiss_join, user=ana, event_id=event.pk
            ),
            [(0,), (1,)],
        )
        assert sorted(code for _, code in outcome) == ["entered", "ok"]
        assert SwissEntry.objects.filter(event=event, user=ana).count() == 1
        assert wallet_balance(user_id=ana.pk) == 750
    assert_sound()


def test_a_late_entry_racing_round_two_is_in_or_refused_never_half(make_user):
    for round_ in range(4):
        lea = make_user(f"lea{round_}")
        ana, ben, cy = players(make_user, f"p{round_}x", 3)
        event = event_of(lea, entry=100)
        for user in (ana, ben):
            swiss_join(user=user, event_id=event.pk)
        here(event, ana, ben)
        swiss_advance(event_id=event.pk, now=event.starts_at)
        (game,) = games_of(event, 1)
        end_game(game, winner=game.first)
        event.refresh_from_db()
        at = round_starts_at(event, 2)
        outcome: list = []
        in_threads(
            lambda which, outcome=outcome, event=event, at=at, cy=cy: (
                attempt(outcome, "join", swiss_join, user=cy, event_id=event.pk)
                if which == "join"
                else outcome.append(("start", swiss_advance(event_id=event.pk, now=at)))
            ),
            [("join",), ("start",)],
        )
        joined = dict(outcome)["join"] == "ok"
        entry = SwissEntry.objects.filter(event=event, user=cy).first()
        assert (entry is not None) == joined, outcome
        assert wallet_balance(user_id=cy.pk) == (900 if joined else 1000)
        if joined:
            assert entry.joined_round == 2
    assert_sound()


def test_a_withdrawal_racing_the_start_refunds_or_keeps_once(make_user):
    for round_ in range(4):
        lea = make_user(f"lea{round_}")
        ana, ben, cy = players(make_user, f"w{round_}x", 3)
        event = event_of(lea, entry=100)
        for user in (ana, ben, cy):
            swiss_join(user=user, event_id=event.pk)
        here(event, ana, ben, cy)
        outcome: list = []
        in_threads(
            lambda which, outcome=outcome, event=event, ana=ana: (
                attempt(outcome, "out", swiss_withdraw, user=ana, event_id=event.pk)
                if which == "out"
                else outcome.append(
                    ("start", swiss_advance(event_id=event.pk, now=event.starts_at))
                )
            ),
            [("out",), ("start",)],
        )
        entry = SwissEntry.objects.filter(event=event, user=ana).first()
        refunded = wallet_balance(user_id=ana.pk) == 1000
        # Out before the start: gone and refunded; after: withdrawn, fee in the pot.
        assert (entry is None) == refunded, outcome
        assert entry is None or entry.withdrawn_at is not None
    assert_sound()


def test_two_sweeps_start_a_round_once(make_user):
    for round_ in range(4):
        lea = make_user(f"lea{round_}")
        users = players(make_user, f"s{round_}x", 4)
        event = event_of(lea, entry=100)
        for user in users:
            swiss_join(user=user, event_id=event.pk)
        here(event, *users)
        in_threads(
            lambda n, event=event: swiss_advance(
                event_id=event.pk, now=event.starts_at
            ),
            [(0,), (1,)],
        )
        assert SwissGame.objects.filter(event=event, round=1).count() == 2
        assert SwissEvent.objects.get(pk=event.pk).round == 1
    assert_sound()


def test_the_last_result_applied_twice_and_a_cancel_move_the_pot_once(make_user):
    for round_ in range(4):
        lea = make_user(f"lea{round_}")
        ana, ben = players(make_user, f"f{round_}x", 2)
        event = event_of(lea, rounds=1, entry=500)
        for user in (ana, ben):
            swiss_join(user=user, event_id=event.pk)
        here(event, ana, ben)
        swiss_advance(event_id=event.pk, now=event.starts_at)
        (game,) = games_of(event, 1)
        outcome: list = []
        in_threads(
            lambda which, outcome=outcome, event=event, game=game, ana=ana: (
                end_game(game, winner=ana)
                if which == "end"
                else attempt(outcome, "cancel", swiss_staff_cancel, event_id=event.pk)
            ),
            [("end",), ("end",), ("cancel",)],
        )
        event.refresh_from_db()
        paid = Transaction.objects.filter(
            kind="payout", table_ref=f"swiss-{event.pk}"
        ).count()
        balances = (wallet_balance(user_id=ana.pk), wallet_balance(user_id=ben.pk))
        if event.state == "finished":
            assert paid == 1 and balances == (1500, 500), outcome
        else:
            assert event.state == "cancelled" and paid == 0, outcome
            assert balances == (1000, 1000)
    assert_sound()
