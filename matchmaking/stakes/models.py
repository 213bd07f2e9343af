"""Stake tables: a games table whose seats cost an entry fee into its pot."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class StakeTable(models.Model):
    """The stake side of one games table (same primary key).

    ``state`` is the table's money fate and the one thing settlement and cancelling
    decide under this row's lock: ``open`` (taking seats until ``fill_deadline``),
    ``playing``, then exactly one of ``settled`` or ``cancelled``.
    """

    class State(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        SETTLED = "settled", _("Settled")
        CANCELLED = "cancelled", _("Cancelled")

    class Reason(models.TextChoices):
        NONE = "", _("None")
        UNFILLED = "unfilled", _("Not filled in time")
        OPERATOR = "operator", _("Aborted by an operator")
        FAULT = "fault", _("The table could not be finished")

    table = models.OneToOneField(
        "games.Table",
        primary_key=True,
        on_delete=models.PROTECT,
        related_name="stake",
    )
    stake = models.PositiveIntegerField()
    shape = models.CharField(max_length=30)
    seats = models.PositiveSmallIntegerField()
    seats_taken = models.PositiveSmallIntegerField(default=0)
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.OPEN, db_index=True
    )
    fill_deadline = models.DateTimeField()
    reason = models.CharField(max_length=10, choices=Reason.choices, blank=True)
    reason_text = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["state", "fill_deadline"]),
            models.Index(fields=["state", "stake", "shape"]),
        ]

    def __str__(self) -> str:
        return f"stake table {self.pk} ({self.shape}, {self.stake}, {self.state})"


class StakeSitter(models.Model):
    """A player holding a seat at a stake table that is not over yet.

    One row per user at most (the unique ``user``): nobody sits at two stake tables
    at once, even when two requests race. Removed when the player stands up or
    the table is settled or cancelled.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="stake_sitter",
    )
    stake_table = models.ForeignKey(
        StakeTable, on_delete=models.CASCADE, related_name="sitters"
    )
    sat_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"user {self.user_id} at stake table {self.stake_table_id}"


class StakeReport(models.Model):
    """A settled stake table for staff to look at (RULES.md §5).

    ``linked``: two of its seats belong to accounts seen from one address or
    device (linked after they sat down, since linked accounts are refused a seat
    together), and the pot moved between them anyway. ``dumping``: a seat forfeited
    before making any decision and its entry went to an account it had met at an
    earlier table. Written when the table settles, once per table and kind.
    """

    class Kind(models.TextChoices):
        LINKED = "linked", _("Linked accounts at one table")
        DUMPING = "dumping", _("Forfeited without playing to an acquaintance")

    stake_table = models.ForeignKey(
        StakeTable, on_delete=models.PROTECT, related_name="reports"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The accounts concerned: the linked ones; or the seat that forfeited, then
    # the accounts its entry went to.
    user_ids = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["stake_table", "kind"], name="stake_report_once_per_kind"
            )
        ]

    def __str__(self) -> str:
        return f"stake table {self.stake_table_id}: {self.kind}"
