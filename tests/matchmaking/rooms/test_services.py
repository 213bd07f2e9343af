"""Friend rooms through their services: the life cycle of a room and its
invitations, every refused input, host actions, the start and the pay."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from economy.conf import friend_percent, online_rewards
from economy.selectors import player_xp, wallet_balance
from games.models import Table
from matchmaking.errors import RoomError
from matchmaking.models import Block, Room, RoomEvent, RoomInvitation
from matchmaking.rooms.services import (
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    room_create,
    room_join,
    room_leave,
    room_remove,
    room_seat_move,
    room_start,
)
from tests.matchmaking.rooms.helpers import notified_fixture, seated  # noqa: F401
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


def a_room(host, *, seats=3, **extra):
    return room_create(
        host=host, variant="draw", options={"seats": seats, "target": 50}, **extra
    )


def snapshot(room):
    """Everything a refused action must leave as it was."""
    room.refresh_from_db()
    return (
        room.status,
        room.host_id,
        seated(room),
        sorted(room.invitations.values_list("invitee__username", "status")),
        room.events.count(),
    )


def refused(code, call, room, **kwargs):
    before = snapshot(room)
    with pytest.raises(RoomError) as info:
        call(**kwargs)
    assert info.value.code == code
    assert snapshot(room) == before
    return info.value.message


def test_create_seats_the_host_and_makes_a_link_and_a_code(make_user):
    ana = make_user("ana")
    room = a_room(ana, host_seat=1, clock_seconds=20, bot_level="hard")
    assert seated(room) == {1: "ana"}
    assert room.table.mode == Table.Mode.FRIEND
    assert room.table.status == Table.Status.WAITING
    assert room.table.clock_seconds == 20
    assert len(room.token) >= 24 and len(room.code) == 6
    other = a_room(make_user("ben"))
    assert (other.token, other.code) != (room.token, room.code)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"clock_seconds": 5}, "10 to 120"),
        ({"clock_seconds": 121}, "10 to 120"),
        ({"bot_level": "godlike"}, "easy, medium or hard"),
        ({"host_seat": 3}, "seats"),
        ({"options": {"seats": 9}}, ""),
    ],
)
def test_create_refuses_bad_options(make_user, kwargs, words):
    ana = make_user("ana")
    args = {"host": ana, "variant": "draw", "options": {"seats": 3}, **kwargs}
    with pytest.raises(RoomError) as info:
        room_create(**args)
    assert words in info.value.message
    assert not Room.objects.exists() and not Table.objects.exists()


def test_invitation_sent_notifies_after_commit_and_accepted_seats(
    make_user, notified, django_capture_on_commit_callbacks
):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        invitation_send(room_id=room.pk, inviter=ana, username="ben")
    assert callbacks and notified == []  # nothing leaves before the commit
    RoomInvitation.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitation_send(room_id=room.pk, inviter=ana, username="BEN")
    assert invitation.status == RoomInvitation.Status.PENDING
    assert invitation.expires_at > timezone.now() + timedelta(minutes=14)
    # The invitee's pages get the invitation; the room's pages only a nudge.
    assert [g for g, _ in notified] == [f"room.{room.pk}", f"user.{ben.pk}"]
    assert notified[0][1] == {"type": "room.changed", "removed": None}
    pushed = notified[1][1]
    assert pushed["type"] == "invitation.push"
    assert pushed["invitation"]["host"] == "ana"
    assert "@" not in str(pushed)
    invitation_accept(invitation_id=invitation.pk, user=ben)
    invitation.refresh_from_db()
    assert invitation.status == RoomInvitation.Status.ACCEPTED
    assert seated(room) == {0: "ana", 1: "ben"}
    kinds = list(room.events.values_list("username", "kind"))
    assert kinds == [("ana", "created")] + [("ben", "invited")] * 2 + [
        ("ben", "joined")
    ]
    # Answered once: a second accept or a decline is refused and changes nothing.
    refused("accepted", invitation_accept, room, invitation_id=invitation.pk, user=ben)
    refused("accepted", invitation_decline, room, invitation_id=invitation.pk, user=ben)


def test_declined_and_declined_with_a_block(make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    first = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    invitation_decline(invitation_id=first.pk, user=ben)
    first.refresh_from_db()
    assert first.status == RoomInvitation.Status.DECLINED
    assert seated(room) == {0: "ana"}
    second = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    invitation_decline(invitation_id=second.pk, user=ben, block=True)
    assert Block.objects.filter(blocker=ben, blocked=ana).exists()
    # Blocked: the inviter hears the same words as for a name that does not exist.
    blocked = refused(
        "unknown", invitation_send, room, room_id=room.pk, inviter=ana, username="ben"
    )
    unknown = refused(
        "unknown", invitation_send, room, room_id=room.pk, inviter=ana, username="zed"
    )
    assert blocked == unknown


def test_expired_after_the_set_time_and_when_the_room_starts(make_user, notified):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    room = a_room(ana)
    late = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    RoomInvitation.objects.filter(pk=late.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    with pytest.raises(RoomError) as info:
        invitation_accept(invitation_id=late.pk, user=ben)
    assert info.value.code == "expired"
    assert seated(room) == {0: "ana"}
    # An expired invitation does not stand in the way of a new one.
    invitation_send(room_id=room.pk, inviter=ana, username="ben")
    unanswered = invitation_send(room_id=room.pk, inviter=ana, username="cy")
    room_start(room_id=room.pk, user=ana)
    unanswered.refresh_from_db()
    assert unanswered.status == RoomInvitation.Status.EXPIRED
    with pytest.raises(RoomError) as info:
        invitation_accept(invitation_id=unanswered.pk, user=cy)
    assert info.value.code == "expired"


@override_settings(ROOM_INVITATION_MINUTES=1)
def test_the_lifetime_is_a_setting(make_user, notified):
    ana = make_user("ana")
    make_user("ben")
    room = a_room(ana)
    invitation = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    assert invitation.expires_at < timezone.now() + timedelta(minutes=2)


def test_withdrawn(make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = a_room(ana)
    invitation = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    refused(
        "not_host", invitation_withdraw, room, invitation_id=invitation.pk, user=ben
    )
    invitation_withdraw(invitation_id=invitation.pk, user=ana)
    invitation.refresh_from_db()
    assert invitation.status == RoomInvitation.Status.WITHDRAWN
    message = refused(
        "withdrawn", invitation_accept, room, invitation_id=invitation.pk, user=ben
    )
    assert "withdrawn" in message
    refused(
        "answered", invitation_withdraw, room, invitation_id=invitation.pk, user=ana
    )


def test_bad_invitations_are_refused_and_change_nothing(make_user, notified):
    ana, ben, cy, dee = (make_user(n) for n in ("ana", "ben", "cy", "dee"))
    room = a_room(ana)
    room_join(room_id=room.pk, user=ben)
    invitation_send(room_id=room.pk, inviter=ana, username="cy")
    sent = len(notified)
    cases = [
        ("unknown", ana, "nobody"),
        ("unknown", ana, "ana@example.com"),
        ("self", ana, "ana"),
        ("seated", ana, "ben"),
        ("invited", ana, "cy"),
        ("not_host", ben, "dee"),
    ]
    for code, inviter, name in cases:
        message = refused(
            code, invitation_send, room, room_id=room.pk, inviter=inviter, username=name
        )
        assert "Error" not in message and "id" not in message.split()
    assert len(notified) == sent
    # A foreign invitation: someone else's cannot be answered.
    theirs = room.invitations.get(invitee=cy)
    refused("no_invitation", invitation_accept, room, invitation_id=theirs.pk, user=dee)
    refused(
        "no_invitation", invitation_decline, room, invitation_id=theirs.pk, user=dee
    )
    refused("no_invitation", invitation_accept, room, invitation_id=10**9, user=dee)


@override_settings(ROOM_INVITATIONS_PER_MINUTE=3)
def test_too_many_invitations_per_minute(make_user, notified):
    ana = make_user("ana")
    names = [make_user(f"p{i}").username for i in range(5)]
    room = a_room(ana, seats=4)
    for name in names[:3]:
        invitation_send(room_id=room.pk, inviter=ana, username=name)
    message = refused(
        "rate", invitation_send, room, room_id=room.pk, inviter=ana, username=names[3]
    )
    assert "minute" in message
    # A minute later the limit has passed.
    RoomInvitation.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    invitation_send(room_id=room.pk, inviter=ana, username=names[3])


def test_joining_by_link_full_started_and_seats_held_for_invitees(make_user, notified):
    ana, ben, cy, dee = (make_user(n) for n in ("ana", "ben", "cy", "dee"))
    room = a_room(ana)
    invitation_send(room_id=room.pk, inviter=ana, username="ben")
    room_join(room_id=room.pk, user=cy)
    # One seat left, held for ben who has not answered.
    refused("full", room_join, room, room_id=room.pk, user=dee)
    refused("seated", room_join, room, room_id=room.pk, user=cy)
    # ben opens the link instead of the toast: his invitation counts as accepted.
    room_join(room_id=room.pk, user=ben)
    assert room.invitations.get(invitee=ben).status == RoomInvitation.Status.ACCEPTED
    assert seated(room) == {0: "ana", 1: "cy", 2: "ben"}
    refused("full", room_join, room, room_id=room.pk, user=dee)
    room_start(room_id=room.pk, user=ana)
    message = refused("started", room_join, room, room_id=room.pk, user=dee)
    assert "started" in message


def test_an_invitee_told_the_room_is_full_keeps_the_invitation(make_user, notified):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    room = a_room(ana, seats=2)
    to_ben = invitation_send(room_id=room.pk, inviter=ana, username="ben")
    to_cy = invitation_send(room_id=room.pk, inviter=ana, username="cy")
    invitation_accept(invitation_id=to_ben.pk, user=ben)
    message = refused("full", invitation_accept, room, invitation_id=to_cy.pk, user=cy)
    assert "full" in message
    refused("full", invitation_send, room, room_id=room.pk, inviter=ana, username="zed")


def test_host_actions_move_remove_and_refused_to_others(make_user, notified):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    room = a_room(ana, seats=4)
    room_join(room_id=room.pk, user=ben)
    room_join(room_id=room.pk, user=cy)
    assert seated(room) == {0: "ana", 1: "ben", 2: "cy"}
    room_seat_move(room_id=room.pk, user=ana, player_id=ben.pk, position=3)
    assert seated(room) == {0: "ana", 2: "cy", 3: "ben"}
    room_seat_move(room_id=room.pk, user=ana, player_id=cy.pk, position=0)  # a swap
    assert seated(room) == {0: "cy", 2: "ana", 3: "ben"}
    for call, kwargs in [
        (room_seat_move, {"player_id": ana.pk, "position": 1}),
        (room_remove, {"player_id": ana.pk}),
        (room_start, {}),
    ]:
        refused("not_host", call, room, room_id=room.pk, user=ben, **kwargs)
    refused(
        "bad_seat",
        room_seat_move,
        room,
        room_id=room.pk,
        user=ana,
        player_id=ben.pk,
        position=4,
    )
    refused("self", room_remove, room, room_id=room.pk, user=ana, player_id=ana.pk)
    room_remove(room_id=room.pk, user=ana, player_id=cy.pk)
    assert seated(room) == {2: "ana", 3: "ben"}
    refused("not_seated", room_remove, room, room_id=room.pk, user=ana, player_id=cy.pk)


def test_the_host_passes_on_leaving_and_the_empty_room_closes(make_user, notified):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    room = a_room(ana)
    room_join(room_id=room.pk, user=cy)
    room_join(room_id=room.pk, user=ben)
    room_seat_move(room_id=room.pk, user=ana, player_id=ben.pk, position=1)
    assert seated(room) == {0: "ana", 1: "ben", 2: "cy"}
    room_leave(room_id=room.pk, user=ana)
    room.refresh_from_db()
    assert room.host_id == ben.pk  # the next seated person, by seat
    pending = invitation_send(room_id=room.pk, inviter=ben, username="ana")
    room_leave(room_id=room.pk, user=ben)
    room.refresh_from_db()
    assert room.host_id == cy.pk and room.status == Room.Status.OPEN
    room_leave(room_id=room.pk, user=cy)
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED
    assert room.table.status == Table.Status.CANCELLED
    pending.refresh_from_db()
    assert pending.status == RoomInvitation.Status.EXPIRED
    hosts = list(
        room.events.filter(kind=RoomEvent.Kind.HOST).values_list("username", flat=True)
    )
    assert hosts == ["ben", "cy"]
    refused("closed", room_join, room, room_id=room.pk, user=ana)


def test_start_fills_empty_and_unanswered_seats_with_labelled_bots(make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    make_user("cy")
    room = a_room(ana, seats=4, bot_level="hard")
    room_join(room_id=room.pk, user=ben)
    invitation_send(room_id=room.pk, inviter=ana, username="cy")
    table = room_start(room_id=room.pk, user=ana)
    assert table.status == Table.Status.PLAYING
    assert seated(room) == {0: "ana", 1: "ben", 2: "bot:hard", 3: "bot:hard"}
    bots = table.seats.filter(user__isnull=True)
    assert all(s.is_bot and not s.simulated for s in bots)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    refused("started", room_start, room, room_id=room.pk, user=ana)
    refused("started", room_leave, room, room_id=room.pk, user=ben)


def test_the_winner_side_only_is_paid_at_half_the_online_rate(
    make_user, notified, queued, pushes, django_capture_on_commit_callbacks
):
    ana, ben = make_user("ana"), make_user("ben")
    room = room_create(
        host=ana, variant="draw", options={"seats": 3, "target": 50}, bot_level="easy"
    )
    room_join(room_id=room.pk, user=ben)
    table = room_start(room_id=room.pk, user=ana)
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    assert table.status == Table.Status.FINISHED
    places = {s.position: s.place for s in table.seats.all()}
    coins, xp = online_rewards()["3"][0]
    for user, position in ((ana, 0), (ben, 1)):
        if places[position] == 1:
            assert wallet_balance(user_id=user.pk) == coins * friend_percent() // 100
            assert player_xp(user_id=user.pk) == xp * friend_percent() // 100
        else:
            assert wallet_balance(user_id=user.pk) == 0
            assert player_xp(user_id=user.pk) == 0
    assert friend_percent() == 50
