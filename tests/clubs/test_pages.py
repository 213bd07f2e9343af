"""``/clubs/`` and ``/clubs/<slug>/`` as players use them: the directory and its
search, a new club, the club page (members, ratings, who is online, results,
requests for leaders, the chat for members only) and every form, refusals shown
in words with nothing changed."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from accounts.presence import presence_connect
from clubs import services
from clubs.models import Club, JoinRequest, Member
from matchmaking.pools.conduct import block_add
from matchmaking.pools.models import Rating
from matchmaking.rooms.models import Room, RoomInvitation
from tests.leagues.conftest import finish

pytestmark = pytest.mark.django_db


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def harbour(make_user):
    ana = make_user("ana")
    club = services.club_create(
        user=ana,
        name="Harbour",
        description="Fridays <b>at</b> eight.",
        language="es",
        open=True,
    )
    return club, ana


def test_club_pages_need_signing_in(client, harbour):
    club, _ana = harbour
    for url in (reverse("clubs"), reverse("club", args=[club.slug])):
        reply = client.get(url)
        assert reply.status_code == 302 and "/accounts/login/" in reply["Location"]


def test_the_directory_lists_searches_and_shows_my_clubs(client, harbour, make_user):
    club, ana = harbour
    services.club_create(
        user=make_user("ben"),
        name="Lisbon Locks",
        description="Block only",
        language="pt-br",
        open=False,
    )
    client.force_login(ana)
    page = client.get(reverse("clubs")).content.decode()
    assert "Harbour" in page and "Lisbon Locks" in page and 'id="my-clubs"' in page
    found = client.get(reverse("clubs"), {"q": "block"}).content.decode()
    directory = found.split('id="club-directory"')[1]
    assert "Lisbon Locks" in directory and ">Harbour<" not in directory
    none = client.get(reverse("clubs"), {"q": "zzz"}).content.decode()
    assert "No club matches those words." in none


def test_starting_a_club_from_the_form(client, make_user):
    ben = make_user("ben")
    client.force_login(ben)
    reply = client.post(
        reverse("club-new"),
        {"name": "Porto Spinners", "description": "", "language": "pt-br", "open": "0"},
        follow=True,
    )
    club = Club.objects.get()
    assert reply.redirect_chain[-1][0] == reverse("club", args=[club.slug])
    assert said(reply) == ["Your club is ready: invite the players you know."]
    assert (club.language, club.open) == ("pt-br", False)
    refused = client.post(
        reverse("club-new"),
        {"name": "admins", "description": "", "language": "pt-br", "open": "1"},
        follow=True,
    )
    assert said(refused) == ["That name belongs to the site's staff; choose another."]
    assert Club.objects.count() == 1
    assert client.get(reverse("club-new")).status_code == 405


def test_the_club_page_shows_members_ratings_online_and_results(
    client, harbour, make_user
):
    club, ana = harbour
    ben = make_user("ben")
    services.club_join(user=ben, slug=club.slug)
    Rating.objects.create(user=ben, variant="draw", mu=27.0, sigma=2.0, tables=40)
    presence_connect(user_id=ben.pk, channel_name="ben-page")
    table = finish(seats=[ana, ben], places=[2, 1], at=timezone.now())
    client.force_login(ana)
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Fridays &lt;b&gt;at&lt;/b&gt; eight." in page  # escaped, never markup
    assert "Español" in page
    assert 'data-member="ben" class="online"' in page
    assert 'data-member="ana" class="offline"' in page
    assert ">1580<" in page  # ben's Draw rating, settled
    assert reverse("table-replay", args=[table.pk]) in page
    assert "ben: Won" in page and "ana: Place 2 of 2" in page
    assert 'id="chat"' in page and 'id="club-chat-history"' in page


def test_a_visitor_sees_no_chat_and_may_join(client, harbour, make_user):
    club, ana = harbour
    eve = make_user("eve")
    client.force_login(eve)
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert 'id="chat"' not in page and 'id="club-join"' in page
    reply = client.post(reverse("club-join", args=[club.slug]), follow=True)
    assert said(reply) == ["Welcome to the club."]
    assert Member.objects.filter(club=club, user=eve).exists()


def test_a_request_answered_from_the_leaders_page(client, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    club = services.club_create(
        user=ana, name="Closed Shop", description="", language="en", open=False
    )
    client.force_login(ben)
    reply = client.post(reverse("club-join", args=[club.slug]), follow=True)
    assert said(reply) == ["Request sent: a leader will answer."]
    assert 'id="club-asked"' in reply.content.decode()
    asked = JoinRequest.objects.get()
    # Someone else's request cannot be answered by a member or a stranger.
    reply = client.post(
        reverse("club-answer", args=[club.slug]),
        {"request": str(asked.pk), "answer": "accept"},
        follow=True,
    )
    assert said(reply) == ["Only the club's leaders may do that."]
    client.force_login(ana)
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert 'id="club-requests"' in page and f'data-request="{asked.pk}"' in page
    for bad in ("", "x", "99999999"):
        reply = client.post(
            reverse("club-answer", args=[club.slug]),
            {"request": bad, "answer": "accept"},
            follow=True,
        )
        assert said(reply) == ["There is no such request."]
    reply = client.post(
        reverse("club-answer", args=[club.slug]),
        {"request": str(asked.pk), "answer": "accept"},
        follow=True,
    )
    assert said(reply) == ["Request accepted."]
    assert Member.objects.filter(club=club, user=ben).exists()


def test_leaders_forms_and_leaving(client, harbour, make_user):
    club, ana = harbour
    ben, cy = make_user("ben"), make_user("cy")
    for user in (ben, cy):
        services.club_join(user=user, slug=club.slug)
    client.force_login(ana)
    url = reverse("club-member", args=[club.slug])
    assert said(
        client.post(url, {"username": "cy", "action": "remove"}, follow=True)
    ) == ["cy is no longer in the club."]
    assert said(
        client.post(url, {"username": "ben", "action": "crown"}, follow=True)
    ) == ["Choose what to do with the member."]
    assert said(
        client.post(url, {"username": "ben", "action": "lead"}, follow=True)
    ) == ["ben is now a leader."]
    reply = client.post(reverse("club-step-down", args=[club.slug]), follow=True)
    assert said(reply) == ["You are a member now, no longer a leader."]
    reply = client.post(reverse("club-leave", args=[club.slug]), follow=True)
    assert said(reply) == ["You left the club."]
    assert {m.user.username: m.role for m in Member.objects.filter(club=club)} == {
        "ben": "leader"
    }
    client.force_login(ben)
    reply = client.post(reverse("club-leave", args=[club.slug]), follow=True)
    assert said(reply) == ["You were the last member: the club is closed."]
    assert reply.redirect_chain[-1][0] == reverse("clubs")
    assert not Club.objects.exists()


def test_a_leader_edits_the_club(client, harbour):
    club, ana = harbour
    client.force_login(ana)
    reply = client.post(
        reverse("club-edit", args=[club.slug]),
        {"description": "Sundays", "language": "xx", "open": "1"},
        follow=True,
    )
    assert said(reply) == ["Choose the language the club speaks."]
    client.post(
        reverse("club-edit", args=[club.slug]),
        {"description": "Sundays", "language": "de", "open": "0"},
    )
    club.refresh_from_db()
    assert (club.description, club.language, club.open) == ("Sundays", "de", False)


def test_inviting_a_member_to_a_room_in_one_click(client, harbour, make_user):
    club, ana = harbour
    ben, eve = make_user("ben"), make_user("eve")
    services.club_join(user=ben, slug=club.slug)
    client.force_login(ana)
    url = reverse("club-invite", args=[club.slug])
    reply = client.post(url, {"username": "eve"}, follow=True)
    assert said(reply) == ["You can invite only your club's members from here."]
    assert not RoomInvitation.objects.exists()
    reply = client.post(url, {"username": "ben"}, follow=True)
    invitation = RoomInvitation.objects.get()
    assert invitation.invitee == ben and invitation.inviter == ana
    assert reply.redirect_chain[-1][0] == reverse("room", args=[invitation.room_id])
    assert said(reply) == ["Room opened and ben invited."]
    # A stranger to the club cannot invite its members from it.
    client.force_login(eve)
    reply = client.post(url, {"username": "ben"}, follow=True)
    assert said(reply) == ["You can invite only your club's members from here."]
    assert RoomInvitation.objects.count() == 1


def test_an_unknown_club_is_a_404_and_its_forms_say_so(client, make_user):
    client.force_login(make_user("ana"))
    assert client.get(reverse("club", args=["nowhere"])).status_code == 404
    reply = client.post(reverse("club-join", args=["nowhere"]), follow=True)
    assert said(reply) == ["There is no such club."]
    assert reply.redirect_chain[-1][0] == reverse("clubs")


def test_a_refused_invitation_leaves_no_empty_room(client, harbour, make_user):
    club, ana = harbour
    ben = make_user("ben")
    services.club_join(user=ben, slug=club.slug)
    block_add(blocker_id=ben.pk, blocked_username="ana")
    client.force_login(ana)
    reply = client.post(
        reverse("club-invite", args=[club.slug]), {"username": "ben"}, follow=True
    )
    assert len(said(reply)) == 1
    assert reply.redirect_chain[-1][0] == reverse("club", args=[club.slug])
    assert not Room.objects.exists() and not RoomInvitation.objects.exists()
