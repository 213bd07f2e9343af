"""Clubs under real concurrency on PostgreSQL: players racing for a club's last
place, both leaders leaving at once, one player joining many clubs at once past
the limit, one name founded twice, an accept racing a withdrawal. Each ends in one
state that keeps the rules."""

from __future__ import annotations

import pytest
from django.test import override_settings

from clubs import services
from clubs.errors import ClubError
from clubs.models import Club, JoinRequest, Member
from tests.support.threads import in_threads

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def attempt(outcome, label, fn, **kwargs):
    try:
        fn(**kwargs)
        outcome.append((label, "ok"))
    except ClubError as err:
        outcome.append((label, err.code))


def club_of(user, name, open=True):
    return services.club_create(
        user=user, name=name, description="", language="en", open=open
    )


@override_settings(CLUB_MEMBERS_MAX=3)
def test_four_players_racing_for_the_last_place_seat_one(make_user):
    for round_ in range(3):
        club = club_of(make_user(f"lead{round_}"), f"Harbour {round_}")
        services.club_join(user=make_user(f"early{round_}"), slug=club.slug)
        racers = [make_user(f"r{round_}x{n}") for n in range(4)]
        outcome: list = []
        in_threads(
            lambda user, club=club, outcome=outcome: attempt(
                outcome, user.username, services.club_join, user=user, slug=club.slug
            ),
            [(u,) for u in racers],
        )
        assert sorted(code for _, code in outcome) == ["club_full"] * 3 + ["ok"]
        assert Member.objects.filter(club=club).count() == 3


def test_both_leaders_leaving_at_once_keep_one(make_user):
    for round_ in range(4):
        ana, ben, cy = (make_user(f"{n}{round_}") for n in ("ana", "ben", "cy"))
        club = club_of(ana, f"Two Crowns {round_}")
        services.club_join(user=ben, slug=club.slug)
        services.club_join(user=cy, slug=club.slug)
        services.leader_name(leader=ana, slug=club.slug, username=ben.username)
        outcome: list = []
        in_threads(
            lambda user, club=club, outcome=outcome: attempt(
                outcome, user.username, services.club_leave, user=user, slug=club.slug
            ),
            [(ana,), (ben,)],
        )
        assert sorted(code for _, code in outcome) == ["last_leader", "ok"]
        leaders = Member.objects.filter(club=club, role=Member.Role.LEADER)
        assert leaders.count() == 1
        # A leader stepping down while the other leaves: one leader stays too.
        other = leaders.get().user
        services.leader_name(leader=other, slug=club.slug, username=cy.username)
        outcome = []
        in_threads(
            lambda fn, user, club=club, outcome=outcome: attempt(
                outcome, user.username, fn, user=user, slug=club.slug
            ),
            [(services.club_leave, other), (services.leader_step_down, cy)],
        )
        assert Member.objects.filter(club=club, role=Member.Role.LEADER).count() == 1, (
            outcome
        )


@override_settings(CLUBS_PER_PLAYER=2)
def test_joining_many_clubs_at_once_stops_at_the_limit(make_user):
    for round_ in range(3):
        ben = make_user(f"ben{round_}")
        clubs = [
            club_of(make_user(f"l{round_}x{n}"), f"Club {round_} {n}") for n in range(4)
        ]
        outcome: list = []
        in_threads(
            lambda club, ben=ben, outcome=outcome: attempt(
                outcome, club.slug, services.club_join, user=ben, slug=club.slug
            ),
            [(c,) for c in clubs],
        )
        assert Member.objects.filter(user=ben).count() == 2
        assert (
            sorted(code for _, code in outcome) == ["ok", "ok"] + ["too_many_clubs"] * 2
        )


def test_one_name_founded_twice_at_once_is_one_club(make_user):
    for round_ in range(4):
        founders = [make_user(f"f{round_}x{n}") for n in range(2)]
        outcome: list = []
        in_threads(
            lambda user, outcome=outcome, round_=round_: attempt(
                outcome, user.username, club_of, user=user, name=f"Lighthouse {round_}"
            ),
            [(u,) for u in founders],
        )
        assert sorted(code for _, code in outcome) == ["name_taken", "ok"]
        club = Club.objects.get(name=f"Lighthouse {round_}")
        assert Member.objects.filter(club=club).count() == 1


def test_an_accept_racing_a_withdrawal_ends_in_one_state(make_user):
    for round_ in range(4):
        ana, ben = make_user(f"ana{round_}"), make_user(f"ben{round_}")
        club = club_of(ana, f"Closed {round_}", open=False)
        asked = services.club_join(user=ben, slug=club.slug)
        outcome: list = []
        in_threads(
            lambda which, fn, kwargs, outcome=outcome: attempt(
                outcome, which, fn, **kwargs
            ),
            [
                (
                    "accept",
                    services.join_request_answer,
                    {"leader": ana, "request_id": asked.pk, "accept": True},
                ),
                (
                    "cancel",
                    services.join_request_cancel,
                    {"user": ben, "request_id": asked.pk},
                ),
            ],
        )
        status = JoinRequest.objects.get(pk=asked.pk).status
        member = Member.objects.filter(club=club, user=ben).exists()
        assert (status, member) in {("accepted", True), ("cancelled", False)}, outcome
        assert sorted(code for _, code in outcome) == ["answered", "ok"]
