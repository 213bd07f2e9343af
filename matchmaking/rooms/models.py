"""Friend rooms: the room, its invitations, its event list and rematch votes.

Before the start the seating truth is the room's waiting ``games.Table`` (its
``Seat`` rows); the room adds who was invited, the share link and the host role.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Room(models.Model):
    """A private room: a host, the chosen options and the current table."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CLOSED = "closed", _("Closed")

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="hosted_rooms",
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    table = models.ForeignKey(
        "games.Table", on_delete=models.PROTECT, related_name="rooms"
    )
    bot_level = models.CharField(max_length=10, default="medium")
    # Off: the room's tables are seen only by its members and invitees.
    allow_spectators = models.BooleanField(default=False)
    # The share link's secret and the short code read aloud: both unique.
    token = models.CharField(max_length=40, unique=True)
    code = models.CharField(max_length=8, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Room {self.code} ({self.status})"


class RoomInvitation(models.Model):
    """An invitation by username; answered at most once."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="room_invitations_sent",
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="room_invitations",
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "invitee"],
                condition=models.Q(status="pending"),
                name="room_invitation_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"invitation {self.pk} to room {self.room_id} ({self.status})"


class RoomEvent(models.Model):
    """One line of the room's event list ("bob joined"): no chat."""

    class Kind(models.TextChoices):
        CREATED = "created", _("created the room")
        INVITED = "invited", _("was invited")
        JOINED = "joined", _("joined")
        DECLINED = "declined", _("declined the invitation")
        WITHDRAWN = "withdrawn", _("is no longer invited")
        LEFT = "left", _("left")
        REMOVED = "removed", _("was removed")
        MOVED = "moved", _("changed seats")
        HOST = "host", _("is now the host")
        STARTED = "started", _("started the game")
        REMATCH = "rematch", _("wants a rematch")
        CLOSED = "closed", _("The room closed")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    username = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.username} {self.kind}"


class RoomRemoval(models.Model):
    """The host removed ``user`` from the room: the link and the code refuse them
    until the host invites them again (the invitation deletes this row)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "user"], name="room_removal_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} removed from room {self.room_id}"


class RoomRematchVote(models.Model):
    """A player of a finished table agrees to play again in the same room."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="votes")
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"], name="room_rematch_one_vote"
            )
        ]

    def __str__(self) -> str:
        return f"rematch vote of {self.user_id} on table {self.table_id}"
