"""Clubs' writes: creating with the name checks, joining open clubs and asking to
join the others, answering, leaving, leaders, and the limits; every refusal in
words and with nothing changed."""

from __future__ import annotations

import pytest
from django.test import override_settings

from clubs import services
from clubs.errors import ClubError
from clubs.models import Club, JoinRequest, Member

pytestmark = pytest.mark.django_db


def make_club(user, name="Harbour Players", open=True, **extra):
    return services.club_create(
        user=user,
        name=name,
        description=extra.get("description", "Fridays at eight."),
        language=extra.get("language", "en"),
        open=open,
    )


def refused(code, fn, **kwargs):
    with pytest.raises(ClubError) as caught:
        fn(**kwargs)
    assert caught.value.code == code, caught.value.code
    return caught.value


def roles(club):
    return {
        m.user.username: m.role
        for m in Member.objects.filter(club=club).select_related("user")
    }


def test_a_new_club_has_its_founder_as_leader_and_a_slug(make_user):
    ana = make_user("ana")
    club = make_club(ana, name="  Harbour   Players ")
    assert club.name == "Harbour Players"
    assert club.slug == "harbour-players"
    assert roles(club) == {"ana": "leader"}
    other = make_club(make_user("ben"), name="Harbour-Players")
    assert other.slug == "harbour-players-2"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "name_length"),
        ("x" * 41, "name_length"),
        ("<script>", "name_chars"),
        ("Club\u202eevil", "name_chars"),  # a bidi override
        ("1234", "name_chars"),
        ("Admin Club", "name_staff"),
        ("The M.o.d.e.r.a.t.o.r.s", "name_staff"),
        ("Staff picks", "name_staff"),
        ("Club Official", "name_staff"),
        ("The Mod Squad", "name_staff"),
        ("\u0430dmin corner", "name_staff"),  # a Cyrillic a
        ("Shit players", "name_word"),
        ("Puta del barrio", "name_word"),
    ],
)
def test_names_that_are_refused(make_user, name, code):
    ana = make_user("ana")
    err = refused(
        code,
        services.club_create,
        user=ana,
        name=name,
        description="",
        language="en",
        open=True,
    )
    assert "name" in err.message
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        "Modesto's table",
        "Systemic Dominoes",
        "Café Ñandú",
        "क्लब दिल्ली",  # Devanagari vowel signs and virama: combining marks
        "ชมรมหมากรุก",  # Thai
        "باشگاه\u200cها",  # Persian with a zero-width non-joiner
        "俱乐部",
    ],
)
def test_ordinary_names_pass(make_user, name):
    assert make_club(make_user("ana"), name=name).name == name


def test_a_name_is_taken_whatever_its_case(make_user):
    make_club(make_user("ana"), name="Harbour")
    refused(
        "name_taken",
        services.club_create,
        user=make_user("ben"),
        name="HARBOUR",
        description="",
        language="en",
        open=True,
    )
    assert Club.objects.count() == 1


def test_description_and_language_are_checked(make_user):
    ana = make_user("ana")
    refused(
        "description_word",
        services.club_create,
        user=ana,
        name="Harbour",
        description="we beat every cunt",
        language="en",
        open=True,
    )
    refused(
        "description_staff",
        services.club_create,
        user=ana,
        name="Harbour",
        description="The official club of the site's moderators.",
        language="en",
        open=True,
    )
    refused(
        "description_length",
        services.club_create,
        user=ana,
        name="Harbour",
        description="x" * 501,
        language="en",
        open=True,
    )
    refused(
        "language",
        services.club_create,
        user=ana,
        name="Harbour",
        description="",
        language="xx",
        open=True,
    )
    assert not Club.objects.exists()


def test_joining_an_open_club_is_at_once_and_once(make_user):
    club = make_club(make_user("ana"))
    ben = make_user("ben")
    made = services.club_join(user=ben, slug=club.slug)
    assert isinstance(made, Member)
    refused("member", services.club_join, user=ben, slug=club.slug)
    assert roles(club) == {"ana": "leader", "ben": "member"}
    refused("no_club", services.club_join, user=ben, slug="no-such-club")


def test_a_closed_club_takes_requests_that_a_leader_answers(make_user):
    club = make_club(make_user("ana"), open=False)
    ana = club.created_by
    ben, cy = make_user("ben"), make_user("cy")
    asked = services.club_join(user=ben, slug=club.slug)
    assert isinstance(asked, JoinRequest)
    refused("asked", services.club_join, user=ben, slug=club.slug)
    other = services.club_join(user=cy, slug=club.slug)
    # A member cannot answer; the asker cannot answer their own request.
    refused(
        "not_leader",
        services.join_request_answer,
        leader=ben,
        request_id=asked.pk,
        accept=True,
    )
    services.join_request_answer(leader=ana, request_id=asked.pk, accept=True)
    services.join_request_answer(leader=ana, request_id=other.pk, accept=False)
    refused(
        "answered",
        services.join_request_answer,
        leader=ana,
        request_id=other.pk,
        accept=True,
    )
    assert roles(club) == {"ana": "leader", "ben": "member"}
    assert JoinRequest.objects.get(pk=other.pk).status == "declined"


def test_a_player_withdraws_only_their_own_request(make_user):
    club = make_club(make_user("ana"), open=False)
    ben, cy = make_user("ben"), make_user("cy")
    asked = services.club_join(user=ben, slug=club.slug)
    refused("no_request", services.join_request_cancel, user=cy, request_id=asked.pk)
    services.join_request_cancel(user=ben, request_id=asked.pk)
    refused("answered", services.join_request_cancel, user=ben, request_id=asked.pk)
    assert JoinRequest.objects.get(pk=asked.pk).status == "cancelled"
    refused("no_request", services.join_request_cancel, user=ben, request_id=0)


@override_settings(CLUB_REQUESTS_PER_DAY=2)
def test_requests_a_day_are_limited(make_user):
    ben = make_user("ben")
    clubs = [
        make_club(make_user(f"l{i}"), name=f"Club {i}", open=False) for i in range(3)
    ]
    for club in clubs[:2]:
        services.club_join(user=ben, slug=club.slug)
    err = refused("rate", services.club_join, user=ben, slug=clubs[2].slug)
    assert "2" in err.message
    assert JoinRequest.objects.filter(user=ben).count() == 2


@override_settings(CLUBS_PER_PLAYER=2)
def test_clubs_per_player_are_limited_founding_included(make_user):
    ben = make_user("ben")
    make_club(ben, name="Own")
    first = make_club(make_user("ana"), name="First")
    second = make_club(make_user("cy"), name="Second", open=False)
    services.club_join(user=ben, slug=first.slug)
    refused("too_many_clubs", services.club_join, user=ben, slug=second.slug)
    refused(
        "too_many_clubs",
        services.club_create,
        user=ben,
        name="Third",
        description="",
        language="en",
        open=True,
    )
    assert Member.objects.filter(user=ben).count() == 2


@override_settings(CLUB_MEMBERS_MAX=2)
def test_a_full_club_takes_nobody_more(make_user):
    club = make_club(make_user("ana"))
    services.club_join(user=make_user("ben"), slug=club.slug)
    refused("club_full", services.club_join, user=make_user("cy"), slug=club.slug)
    assert Member.objects.filter(club=club).count() == 2


def test_the_last_leader_names_another_before_leaving(make_user):
    club = make_club(make_user("ana"))
    ana = club.created_by
    ben = make_user("ben")
    services.club_join(user=ben, slug=club.slug)
    err = refused("last_leader", services.club_leave, user=ana, slug=club.slug)
    assert "leader" in err.message
    refused("last_leader", services.leader_step_down, user=ana, slug=club.slug)
    refused(
        "not_leader", services.leader_name, leader=ben, slug=club.slug, username="ana"
    )
    services.leader_name(leader=ana, slug=club.slug, username="BEN")
    refused("leader", services.leader_name, leader=ana, slug=club.slug, username="ben")
    assert services.club_leave(user=ana, slug=club.slug) is False
    assert roles(club) == {"ben": "leader"}
    refused("not_member", services.club_leave, user=ana, slug=club.slug)


def test_the_last_member_leaving_closes_the_club(make_user):
    club = make_club(make_user("ana"))
    assert services.club_leave(user=club.created_by, slug=club.slug) is True
    assert not Club.objects.exists()


def test_a_leader_steps_down_when_another_remains(make_user):
    club = make_club(make_user("ana"))
    ana, ben = club.created_by, make_user("ben")
    services.club_join(user=ben, slug=club.slug)
    services.leader_name(leader=ana, slug=club.slug, username="ben")
    services.leader_step_down(user=ana, slug=club.slug)
    assert roles(club) == {"ana": "member", "ben": "leader"}


def test_leaders_remove_members_but_not_leaders_nor_themselves(make_user):
    club = make_club(make_user("ana"))
    ana, ben, cy = club.created_by, make_user("ben"), make_user("cy")
    for user in (ben, cy):
        services.club_join(user=user, slug=club.slug)
    refused(
        "not_leader", services.member_remove, leader=ben, slug=club.slug, username="cy"
    )
    refused("self", services.member_remove, leader=ana, slug=club.slug, username="ana")
    refused(
        "no_member", services.member_remove, leader=ana, slug=club.slug, username="zed"
    )
    services.leader_name(leader=ana, slug=club.slug, username="ben")
    refused(
        "remove_leader",
        services.member_remove,
        leader=ana,
        slug=club.slug,
        username="ben",
    )
    services.member_remove(leader=ana, slug=club.slug, username="cy")
    assert roles(club) == {"ana": "leader", "ben": "leader"}


def test_leaders_edit_and_members_cannot(make_user):
    club = make_club(make_user("ana"))
    ben = make_user("ben")
    services.club_join(user=ben, slug=club.slug)
    refused(
        "not_leader",
        services.club_edit,
        leader=ben,
        slug=club.slug,
        description="mine now",
        language="es",
        open=False,
    )
    services.club_edit(
        leader=club.created_by,
        slug=club.slug,
        description="Los viernes.",
        language="es",
        open=False,
    )
    club.refresh_from_db()
    assert (club.description, club.language, club.open) == ("Los viernes.", "es", False)
