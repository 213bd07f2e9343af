"""Blocks between players, leavers' offences and matchmaking cooldowns."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Block(models.Model):
    """``blocker`` is never seated with ``blocked`` (either way round)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Offence(models.Model):
    """A forfeit or repeated clock run-outs at one online or stake table."""

    class Kind(models.TextChoices):
        FORFEIT = "forfeit", _("Left a started table")
        CLOCK = "clock", _("Let the clock run out repeatedly")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="offences"
    )
    table_id = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "table_id"], name="offence_once_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} at table {self.table_id}"


class Cooldown(models.Model):
    """A player's matchmaking cooldown: searching is refused until ``until``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cooldown"
    )
    until = models.DateTimeField(null=True, blank=True)
    minutes = models.PositiveIntegerField(default=0, help_text="the last one given")
    warned = models.BooleanField(default=False, help_text="the first-time warning")
    warning_seen = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"cooldown of {self.user_id} until {self.until}"
