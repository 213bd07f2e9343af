"""The pools' models: searches and the per-pool wave lock, ratings per variant
(openskill's mu and sigma) and their history, blocks between players, leavers'
offences and matchmaking cooldowns."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class PoolWave(models.Model):
    """One row per pool: the claim of the wave running in it, so two waves never
    overlap. A wave seats in several transactions, so it holds a lease rather than
    a row lock: ``runner`` until ``running_until``, which each of its seating
    batches renews; a wave whose worker died frees the pool when that passes."""

    pool = models.CharField(max_length=40, primary_key=True)
    last_wave_at = models.DateTimeField(null=True, blank=True)
    last_tables = models.PositiveIntegerField(default=0)
    runner = models.CharField(max_length=32, blank=True, default="")
    running_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"wave lock of {self.pool}"


class Search(models.Model):
    """A player looking for a table in one pool, until seated, cancelled or dropped."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Searching")
        SEATED = "seated", _("Seated")
        CANCELLED = "cancelled", _("Cancelled")
        DROPPED = "dropped", _("Dropped (no connection)")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="searches"
    )
    pool = models.CharField(max_length=40)
    speed = models.CharField(
        max_length=10, default="slow", help_text="a key of MATCHMAKING_SPEEDS"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING
    )
    rating = models.FloatField(help_text="the displayed rating when the search began")
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(help_text="last time a lobby socket held it")
    seated_table_id = models.PositiveBigIntegerField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["pool", "status", "rating"])]
        constraints = [
            # A player is in at most one pool at a time.
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="waiting"),
                name="search_one_waiting_per_user",
            ),
            # A search is seated at one table; a player once per table.
            models.UniqueConstraint(
                fields=["user", "seated_table_id"],
                condition=Q(status="seated"),
                name="search_seated_once_per_table",
            ),
            models.CheckConstraint(
                condition=Q(status="seated", seated_table_id__isnull=False)
                | (~Q(status="seated") & Q(seated_table_id__isnull=True)),
                name="search_seated_has_table",
            ),
        ]

    def __str__(self) -> str:
        return f"search {self.pk} of {self.user_id} in {self.pool} ({self.status})"


class Seek(models.Model):
    """An open table a player offers in the lobby: others join it with a click, and
    when its seats are full (or its owner starts it early, computers filling) it
    becomes a table like a wave's. Rated seeks seat an online table, unrated ones a
    friend table (rated by nobody). A stake seek sells its seats through a stake
    table of the stake books (``stake_table_id``), which takes the entries."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("an open table waiting for players", "Open")
        STARTED = "started", _("Started")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    pool = models.CharField(max_length=40)
    speed = models.CharField(max_length=10, help_text="a key of MATCHMAKING_SPEEDS")
    rated = models.BooleanField(default=True)
    stake = models.PositiveIntegerField(default=0, help_text="coins; 0: no stake")
    stake_table_id = models.PositiveBigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default="open")
    created_at = models.DateTimeField()
    seen_at = models.DateTimeField(help_text="last time the owner's lobby held it")
    ended_at = models.DateTimeField(null=True, blank=True)
    table_id = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="started", table_id__isnull=False)
                | (~Q(status="started") & Q(table_id__isnull=True)),
                name="seek_started_has_table",
            ),
        ]

    def __str__(self) -> str:
        return f"seek {self.pk} of {self.owner_id} in {self.pool} ({self.status})"


class SeekPlayer(models.Model):
    """A player holding a place at a seek (its owner included). ``active`` while
    the seek is open: a player holds one active place at a time."""

    seek = models.ForeignKey(Seek, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    rating = models.FloatField(help_text="the displayed rating when they joined")
    joined_at = models.DateTimeField()
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(active=True),
                name="seek_player_one_open_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at seek {self.seek_id}"


class RematchOffer(models.Model):
    """A person's offer of a rematch after a finished online table; when every
    person of that table has offered, one new table of the same pool seats them
    all (``new_table_id``, written on every offer of the table)."""

    table_id = models.PositiveBigIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    new_table_id = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table_id", "user"], name="rematch_offer_once_per_person"
            )
        ]

    def __str__(self) -> str:
        return f"rematch of table {self.table_id} offered by {self.user_id}"


class Rating(models.Model):
    """A player's current skill estimate in one variant."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    tables = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant"], name="rating_one_per_variant"
            )
        ]
        indexes = [models.Index(fields=["variant", "mu"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} mu={self.mu:.2f} sigma={self.sigma:.2f}"


class RatingChange(models.Model):
    """One rated table's effect on one player; at most one per table and player."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    table_id = models.PositiveBigIntegerField()
    variant = models.CharField(max_length=20)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table_id", "user"], name="rating_change_once_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.table_id}: {self.user_id}"


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
