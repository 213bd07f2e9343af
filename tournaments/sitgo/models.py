"""Stake sit-and-gos: 4 or 8 entrants, one pot, tables of entrants only
(docs/tournaments.md, "Stake sit-and-gos")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SitGo(models.Model):
    """One sit-and-go: its kind (size, entry, game), its state and its pot.

    ``state`` is decided under this row's lock by every write (entering,
    withdrawing, starting, cancelling, a table finishing, settling): ``open``
    (taking entries until ``fill_deadline``, set by the first entry), ``running``,
    then exactly one of ``finished`` (pot paid out) or ``cancelled`` (refunded:
    not filled in time, or cancelled by the staff, also while running). At most
    one open sit-and-go per size and entry.
    """

    class State(models.TextChoices):
        OPEN = "open", _("Taking entries")
        RUNNING = "running", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Reason(models.TextChoices):
        NONE = "", _("None")
        UNFILLED = "unfilled", _("Not filled in time")
        OPERATOR = "operator", _("Cancelled by an operator")
        STAFF = "staff", _("Cancelled by the staff, entries refunded")

    size = models.PositiveSmallIntegerField()
    entry = models.PositiveIntegerField()
    variant = models.CharField(max_length=20)
    options = models.JSONField(help_text="engine options of every table")
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.OPEN, db_index=True
    )
    reason = models.CharField(max_length=10, choices=Reason.choices, blank=True)
    seats_taken = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    fill_deadline = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("sit-and-go")
        verbose_name_plural = _("sit-and-gos")
        indexes = [models.Index(fields=["state", "fill_deadline"])]
        constraints = [
            models.UniqueConstraint(
                fields=["size", "entry"],
                condition=models.Q(state="open"),
                name="sitgo_one_open_per_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(size__in=(4, 8)), name="sitgo_size_4_or_8"
            ),
        ]

    def __str__(self) -> str:
        return f"sit-and-go {self.pk} ({self.size}x{self.entry}, {self.state})"

    @property
    def pot_ref(self) -> str:
        """The pot's ``table_ref`` in the ledger (no ``:``, at most 64 chars)."""
        return f"sitgo-{self.pk}"


class SitGoEntry(models.Model):
    """One entrant of a sit-and-go; the row is removed when they withdraw.

    ``active_user`` is the entrant while they are still in the event (open, or
    running and not knocked out in its first round) and NULL after: unique, so
    nobody is entered in two live sit-and-gos, even when two requests race.
    ``place`` and ``payout`` are written when the event finishes.
    """

    sitgo = models.ForeignKey(SitGo, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sitgo_entries"
    )
    active_user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="sitgo_active",
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    payout = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["sitgo", "user"], name="sitgo_entry_one_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} in sit-and-go {self.sitgo_id}"


class SitGoTable(models.Model):
    """One game of a sit-and-go: round 1 or the final, a games table of entrants.

    ``void`` is a game a server fault cancelled: it counts for nothing and a new
    table of the same players replays it (same round and number). ``cancelled`` is
    a game of a sit-and-go the staff cancelled: nothing replays it. ``order`` is the
    finishing order of its players (user ids, best first) once ``done``.
    """

    class State(models.TextChoices):
        PLAYING = "playing", _("Playing")
        DONE = "done", _("Finished")
        VOID = "void", _("Replayed after a fault")
        CANCELLED = "cancelled", _("Cancelled")

    sitgo = models.ForeignKey(SitGo, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        "games.Table", on_delete=models.PROTECT, related_name="sitgo_table"
    )
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.PLAYING, db_index=True
    )
    order = models.JSONField(default=list, blank=True)
    noshow_checked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["sitgo", "round", "number"],
                condition=~models.Q(state="void"),
                name="sitgo_table_one_live_per_slot",
            )
        ]

    def __str__(self) -> str:
        return f"sit-and-go {self.sitgo_id} round {self.round} table {self.number}"
