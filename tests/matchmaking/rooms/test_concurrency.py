"""Two invitees accept the last free seat at the same instant, on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from matchmaking.errors import RoomError
from matchmaking.models import RoomInvitation
from matchmaking.rooms.services import invitation_accept, invitation_send, room_create
from tests.matchmaking.rooms.helpers import notified_fixture, seated  # noqa: F401

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_one_is_seated_and_the_other_told_the_room_is_full(make_user, notified):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    for round_ in range(5):
        room = room_create(host=ana, variant="draw", options={"seats": 2})
        invitations = {
            user: invitation_send(room_id=room.pk, inviter=ana, username=user.username)
            for user in (ben, cy)
        }
        barrier = threading.Barrier(2)
        outcome: dict[str, str] = {}

        def accept(user, invitation, barrier=barrier, outcome=outcome):
            try:
                barrier.wait(timeout=10)
                invitation_accept(invitation_id=invitation.pk, user=user)
                outcome[user.username] = "seated"
            except RoomError as err:
                outcome[user.username] = err.code
            finally:
                connection.close()

        threads = [
            threading.Thread(target=accept, args=pair) for pair in invitations.items()
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcome.values()) == ["full", "seated"], (round_, outcome)
        winner = next(name for name, o in outcome.items() if o == "seated")
        assert seated(room) == {0: "ana", 1: winner}
        statuses = dict(
            RoomInvitation.objects.filter(room=room).values_list(
                "invitee__username", "status"
            )
        )
        loser = "cy" if winner == "ben" else "ben"
        assert statuses == {winner: "accepted", loser: "pending"}
