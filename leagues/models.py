"""The weekly league's records: weeks, groups, memberships, point entries, corrections.

A :class:`Week` runs Monday 00:00 UTC to the next Monday. A player takes a
:class:`Membership` (a place in a :class:`Group` of their division) at their first
counted table of the week; each human seat of a counted table is one
:class:`PointEntry` (unique per table and seat). A closed week is an archive: its
memberships keep their final rank, result and reward, and nothing writes to it again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Division(models.TextChoices):
    BRONZE = "bronze", _("Bronze")
    SILVER = "silver", _("Silver")
    GOLD = "gold", _("Gold")
    PLATINUM = "platinum", _("Platinum")
    DIAMOND = "diamond", _("Diamond")


class Player(models.Model):
    """A player's current division (a player without a row is in Bronze)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league"
    )
    division = models.CharField(
        max_length=10, choices=Division.choices, default=Division.BRONZE
    )

    def __str__(self) -> str:
        return f"{self.user_id} {self.division}"


class Week(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("league week state", "open")
        CLOSED = "closed", _("closed")

    start = models.DateTimeField(unique=True, help_text="Monday 00:00 UTC")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    # Set once every reward of the closed week is in the ledger.
    paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["start"]

    def __str__(self) -> str:
        return self.key

    @property
    def key(self) -> str:
        """The week's name in ledger keys and URLs: its Monday, ``YYYY-MM-DD``."""
        return self.start.date().isoformat()


class Group(models.Model):
    week = models.ForeignKey(Week, on_delete=models.CASCADE, related_name="groups")
    division = models.CharField(max_length=10, choices=Division.choices)
    number = models.PositiveIntegerField()
    size = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["week", "division", "number"], name="leagues_group_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.week.key} {self.division} #{self.number}"


class Membership(models.Model):
    class Result(models.TextChoices):
        PROMOTED = "promoted", _("promoted")
        DEMOTED = "demoted", _("demoted")
        STAYED = "stayed", _("stayed")

    # No index of their own: (week, user) and (group, points) lead with them, and a
    # week's close rewrites every row (bench/league.py).
    week = models.ForeignKey(
        Week, on_delete=models.CASCADE, related_name="members", db_index=False
    )
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="members", db_index=False
    )
    # A deleted account leaves its place empty (NULL): it is never ranked or paid.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="league_weeks",
    )
    division = models.CharField(max_length=10, choices=Division.choices)
    points = models.DecimalField(max_digits=9, decimal_places=1, default=0)
    tables = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField()
    # When the current total was reached: ties break by who got there first.
    reached_at = models.DateTimeField()
    # Written when the week closes.
    rank = models.PositiveIntegerField(null=True, blank=True)
    result = models.CharField(max_length=10, choices=Result.choices, blank=True)
    reward = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["week", "user"], name="leagues_membership_unique"
            )
        ]
        indexes = [models.Index(fields=["group", "points"])]

    def __str__(self) -> str:
        return f"{self.week.key} {self.user_id} {self.points}"


class PointEntry(models.Model):
    """One human seat of one counted table (``counted`` false: over the pair limit)."""

    table_id = models.BigIntegerField()
    position = models.PositiveSmallIntegerField()
    week = models.ForeignKey(Week, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="league_points",
    )
    mode = models.CharField(max_length=10)
    place = models.PositiveSmallIntegerField()
    weight = models.DecimalField(max_digits=3, decimal_places=2)
    points = models.DecimalField(max_digits=7, decimal_places=1)
    counted = models.BooleanField(default=True)
    day = models.DateField(help_text="UTC day of the finish, for the pair limit")
    finished_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table_id", "position"], name="leagues_entry_once_per_seat"
            )
        ]
        indexes = [models.Index(fields=["user", "day"])]
        verbose_name_plural = "point entries"

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.position}: {self.points}"


class Correction(models.Model):
    """An operator's removal of a player's points for a week, with the reason."""

    membership = models.ForeignKey(
        Membership, on_delete=models.PROTECT, related_name="corrections"
    )
    points_removed = models.DecimalField(max_digits=9, decimal_places=1)
    reason = models.TextField()
    operator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"-{self.points_removed} ({self.membership})"
