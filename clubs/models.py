"""Clubs: players who gather under a name, with leaders, members, requests to join
and a chat of their own."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

NAME_MAX = 40
DESCRIPTION_MAX = 500


class Club(models.Model):
    """A club; its leaders and members are its ``members``. A club always keeps a
    leader: the last one cannot leave while others remain (``clubs.services``)."""

    name = models.CharField(max_length=NAME_MAX)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(max_length=DESCRIPTION_MAX, blank=True)
    # The language the club speaks (one of settings.LANGUAGES), shown on its card.
    language = models.CharField(max_length=10)
    # Open: anyone joins at once. Otherwise a leader accepts each request.
    open = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("name"), name="club_name_once"),
        ]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A player in a club, as a leader or a member."""

    class Role(models.TextChoices):
        LEADER = "leader", _("Leader")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role})"


class JoinRequest(models.Model):
    """``user`` asked to join a club that is not open. One pending request per
    player and club; answered ones stay (for the daily limit and the record)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Withdrawn")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(status="pending"),
                name="club_request_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} -> {self.club_id} ({self.status})"


class ClubLine(models.Model):
    """One line of a club's chat: a set phrase (its key, shown in each reader's
    language) or free text, kept so that members who arrive later read it and so
    that a member can report it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="lines")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    phrase = models.CharField(max_length=20, blank=True, default="")
    text = models.CharField(max_length=200, blank=True, default="")
    # The line as the word filter reads it (``core.words.text_normal``), for the
    # staff reading a report.
    normal = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["club", "-id"], name="club_line_recent")]

    def __str__(self) -> str:
        return self.text or self.phrase


class ClubLineReport(models.Model):
    """A member reported a line of their club's chat to the staff."""

    line = models.ForeignKey(ClubLine, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["line", "reporter"], name="club_line_report_once"
            )
        ]

    def __str__(self) -> str:
        return f"report of club line {self.line_id}"
