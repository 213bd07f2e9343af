"""What happened to an account, for its event stream: challenges received and
answered, games started and ended.

Read by polling the database rather than from a channel group: the rows are the
truth (a stream opened late, on another process, or after a lost message still
says everything), and a poll a second per open stream is cheap next to a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Table
from games.replays.access import ENDED
from matchmaking.rooms.models import RoomInvitation

LIVE = (Table.Status.WAITING, Table.Status.PLAYING)


@dataclass
class Seen:
    """What one stream has told its reader so far."""

    challenges: set[int] = field(default_factory=set)
    sent: set[int] = field(default_factory=set)
    games: set[int] = field(default_factory=set)


def _challenge(invitation: RoomInvitation) -> dict[str, Any]:
    table = invitation.room.table
    return {
        "type": "challenge",
        "challenge": {
            "id": invitation.pk,
            "from": invitation.inviter.get_username(),
            "variant": table.variant,
            "seats": table.options.get("seats"),
            "clock": table.clock_seconds,
            "expires_at": invitation.expires_at.isoformat(),
            "accept": f"/api/challenge/{invitation.pk}/accept",
            "decline": f"/api/challenge/{invitation.pk}/decline",
        },
    }


def events_poll(*, user: User, seen: Seen) -> list[dict[str, Any]]:
    """The events since ``seen`` (which is brought up to date), oldest kind first."""
    now = timezone.now()
    out: list[dict[str, Any]] = []
    pending = {
        i.pk: i
        for i in RoomInvitation.objects.filter(
            invitee=user,
            status=RoomInvitation.Status.PENDING,
            expires_at__gt=now,
        ).select_related("inviter", "room__table")
    }
    for pk in sorted(pending.keys() - seen.challenges):
        out.append(_challenge(pending[pk]))
    for pk in sorted(seen.challenges - pending.keys()):
        out.append({"type": "challengeGone", "challenge": {"id": pk}})
    seen.challenges = set(pending)

    mine = {
        i.pk: i
        for i in RoomInvitation.objects.filter(
            inviter=user, created_at__gte=now - timedelta(hours=1)
        ).select_related("invitee")
    }
    for pk, invitation in sorted(mine.items()):
        if invitation.status == RoomInvitation.Status.PENDING:
            seen.sent.add(pk)
        elif pk in seen.sent:
            seen.sent.discard(pk)
            out.append(
                {
                    "type": "challengeAnswered",
                    "challenge": {
                        "id": pk,
                        "to": invitation.invitee.get_username(),
                        "status": invitation.status,
                    },
                }
            )

    playing = {
        t.pk: t
        for t in Table.objects.filter(
            seats__user=user, status=Table.Status.PLAYING
        ).distinct()
    }
    for pk in sorted(playing.keys() - seen.games):
        table = playing[pk]
        out.append(
            {
                "type": "gameStart",
                "game": {
                    "id": pk,
                    "variant": table.variant,
                    "mode": table.mode,
                    "stream": f"/api/games/{pk}/stream",
                    "move": f"/api/games/{pk}/move",
                },
            }
        )
    gone = seen.games - playing.keys()
    if gone:
        for table in Table.objects.filter(pk__in=gone, status__in=ENDED).order_by("pk"):
            out.append(
                {
                    "type": "gameFinish",
                    "game": {
                        "id": table.pk,
                        "status": table.status,
                        "summary": f"/api/games/{table.pk}",
                    },
                }
            )
    seen.games = set(playing)
    return out
