"""Friend requests and friendships between players."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class FriendRequest(models.Model):
    """``sender`` asked ``recipient`` to be friends. A pending request per ordered
    pair at most; answered ones stay (for the daily limit and the record)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Withdrawn")

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_sent",
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "recipient"],
                condition=Q(status="pending"),
                name="friend_request_one_pending",
            ),
            models.CheckConstraint(
                condition=~Q(sender=F("recipient")), name="friend_request_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} -> {self.recipient_id} ({self.status})"


class Friendship(models.Model):
    """Two players are friends; stored once, the lower user id first."""

    low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="friendship_once"),
            models.CheckConstraint(
                condition=Q(low__lt=F("high")), name="friendship_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.low_id} & {self.high_id}"
