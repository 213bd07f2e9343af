"""Issue 31's friend-room items through the test client: a removed player kept
out, the join page's full/closed/started words, Decline and block confirmed, and
one's own list of blocks with Unblock."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from matchmaking.errors import RoomError
from matchmaking.models import Block, RoomInvitation, RoomRemoval
from matchmaking.rooms.services import (
    invitation_accept,
    invitation_send,
    room_create,
    room_join,
    room_leave,
    room_remove,
    room_start,
)
from tests.matchmaking.rooms.helpers import notified_fixture, seated  # noqa: F401

pytestmark = pytest.mark.django_db

REMOVED_WORDS = "The host removed you from this room."


def a_room(host, seats=3):
    return room_create(host=host, variant="draw", options={"seats": seats})


def test_a_removed_player_is_refused_by_link_and_code_until_invited_again(
    client, make_user, notified, django_capture_on_commit_callbacks
):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    room_join(room_id=room.pk, user=ben)
    with django_capture_on_commit_callbacks(execute=True):
        room_remove(room_id=room.pk, user=ana, player_id=ben.pk)
    assert seated(room) == {0: "ana"}
    # Their open pages are nudged with who was removed.
    assert (f"room.{room.pk}", {"type": "room.changed", "removed": ben.pk}) in notified

    client.force_login(ben)
    join = reverse("room-join", args=[room.token])
    page = client.get(join).content.decode()
    assert REMOVED_WORDS in page and "Join the game" not in page
    again = client.post(join, follow=True).content.decode()
    assert REMOVED_WORDS in again
    by_code = client.post(reverse("room-code"), {"code": room.code}, follow=True)
    assert REMOVED_WORDS in by_code.content.decode()
    assert "Join the game" not in by_code.content.decode()
    with pytest.raises(RoomError) as refused:
        room_join(room_id=room.pk, user=ben)
    assert refused.value.code == "removed"
    assert seated(room) == {0: "ana"}
    # The room's pages and state are closed to them as to any stranger.
    assert client.get(reverse("room", args=[room.pk])).status_code == 404
    assert client.get(reverse("room-state", args=[room.pk])).status_code == 404

    # Invited again: they may come back, and the removal is forgotten.
    invitation = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    invitation_accept(invitation_id=invitation.pk, user=ben)
    assert seated(room) == {0: "ana", 1: "ben"}
    assert not RoomRemoval.objects.exists()


def test_an_invitation_lets_a_removed_player_back_through_the_link_too(
    make_user, notified
):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    room_join(room_id=room.pk, user=ben)
    room_remove(room_id=room.pk, user=ana, player_id=ben.pk)
    invitation_send(room_id=room.pk, inviter=ana, username="ben")
    room_join(room_id=room.pk, user=ben)
    assert seated(room) == {0: "ana", 1: "ben"}
    assert RoomInvitation.objects.get().status == RoomInvitation.Status.ACCEPTED
    assert not RoomRemoval.objects.exists()


def test_leaving_is_not_a_removal(make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    room_join(room_id=room.pk, user=ben)
    room_leave(room_id=room.pk, user=ben)
    room_join(room_id=room.pk, user=ben)
    assert seated(room) == {0: "ana", 1: "ben"}


def test_a_full_room_says_so_before_any_click(client, make_user, notified):
    ana, ben, cy, dee = (make_user(n) for n in ("ana", "ben", "cy", "dee"))
    room = a_room(ana, seats=3)
    room_join(room_id=room.pk, user=ben)
    invitation_send(room_id=room.pk, inviter=ana, username="cy")  # holds the last
    client.force_login(dee)
    page = client.get(reverse("room-join", args=[room.token])).content.decode()
    assert "is full" in page
    assert "Join the game" not in page and "invites you" not in page


def test_a_closed_or_started_room_no_longer_invites(client, make_user, notified):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    started, closed = a_room(ana), a_room(ben)
    room_start(room_id=started.pk, user=ana)
    room_leave(room_id=closed.pk, user=ben)
    client.force_login(cy)
    for room, words in ((started, "has already started"), (closed, "has closed")):
        page = client.get(reverse("room-join", args=[room.token])).content.decode()
        assert words in page
        assert "invites you" not in page and "Join the game" not in page


def test_decline_and_block_asks_first_and_says_what_blocking_does(
    client, make_user, notified
):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    invitation = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    client.force_login(ben)
    listing = client.get(reverse("invitations")).content.decode()
    confirm_url = reverse("invitation-block", args=[invitation.pk])
    assert f'href="{confirm_url}"' in listing
    # The list itself sends no block: no form of it carries block=1.
    assert 'name="block" value="1"' not in listing
    confirm = client.get(confirm_url).content.decode()
    assert "can no longer invite you" in confirm
    assert "never seated together" in confirm
    assert "unblock them at any time on your profile" in confirm
    assert not Block.objects.exists()
    client.post(reverse("invitation-decline", args=[invitation.pk]), {"block": "1"})
    assert Block.objects.filter(blocker=ben, blocked=ana).exists()
    invitation.refresh_from_db()
    assert invitation.status == RoomInvitation.Status.DECLINED
    # An answered invitation's confirm page goes back to the list.
    assert client.get(confirm_url).url == reverse("invitations")


def test_my_profile_lists_whom_i_blocked_with_unblock(client, make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    Block.objects.create(blocker=ben, blocked=ana)
    Block.objects.create(blocker=ben, blocked=cy)
    Block.objects.create(blocker=cy, blocked=ben)
    client.force_login(ben)
    mine = reverse("player-profile", args=["ben"])
    page = client.get(mine).content.decode()
    section = page[page.index('id="my-blocks"') :]
    assert re.findall(r'action="/players/(\w+)/unblock/"', section) == ["ana", "cy"]
    assert "csrfmiddlewaretoken" in section
    # Only on one's own profile.
    other = client.get(reverse("player-profile", args=["cy"])).content.decode()
    assert 'id="my-blocks"' not in other
    # Unblock is a POST (a GET changes nothing) and comes back to the list.
    unblock = reverse("player-unblock", args=["ana"])
    assert client.get(unblock).status_code == 405
    reply = client.post(unblock, {"next": mine})
    assert reply.url == mine
    assert list(
        Block.objects.filter(blocker=ben).values_list("blocked__username", flat=True)
    ) == ["cy"]
    assert client.post(
        reverse("player-unblock", args=["cy"]), {"next": "https://evil.example/"}
    ).url == reverse("player-profile", args=["cy"])


def test_unblock_needs_the_csrf_token(make_user):
    from django.test import Client

    ana, ben = make_user("ana"), make_user("ben")
    Block.objects.create(blocker=ben, blocked=ana)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ben)
    assert strict.post(reverse("player-unblock", args=["ana"])).status_code == 403
    assert Block.objects.exists()


def test_the_room_page_actions_are_buttons_and_there_is_copy_link(
    client, make_user, notified
):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    room_join(room_id=room.pk, user=ben)
    invitation_send(room_id=room.pk, inviter=ana, username=make_user("cy").username)
    client.force_login(ana)
    page = client.get(reverse("room", args=[room.pk])).content.decode()
    for label in ("Remove", "Move", "Withdraw", "Leave the room"):
        button = re.search(rf'<button class="([^"]*)"[^>]*>{label}</button>', page)
        assert button and "button" in button.group(1).split(), label
    assert 'id="copy-link"' in page and 'id="share-room"' in page
