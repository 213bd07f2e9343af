"""Tables, their seats and the append-only move log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Table(models.Model):
    """One match of one variant. Its truth is ``state`` plus the ``TableEvent`` log."""

    class Mode(models.TextChoices):
        PRACTICE = "practice", _("Practice")
        FRIEND = "friend", _("Friend room")
        ONLINE = "online", _("Online")
        STAKE = "stake", _("Stake table")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Timer(models.TextChoices):
        NONE = "", _("Nothing due")
        BOT = "bot", _("A computer player moves")
        CLOCK = "clock", _("A turn clock runs out")
        NEXT_HAND = "next_hand", _("The next hand starts")
        DEAL = "deal", _("The first hand is dealt")

    mode = models.CharField(max_length=10, choices=Mode.choices)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    variant = models.CharField(max_length=20)
    options = models.JSONField(help_text="engine Options.to_dict()")
    # Like ``Seat.user``, without a foreign key in the database (games/stores.py).
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
        db_constraint=False,
    )
    # Server-only: the deal's seed (from ``secrets``) and the engine state.
    seed = models.BigIntegerField()
    state = models.JSONField(null=True, blank=True)
    # Server-only as well: the fair deal (RULES.md §1.1, ``games.fairness``): the
    # secret top of each hash chain, their public commitments and the client seeds.
    # Empty for the tables dealt before fair deals, which keep dealing from ``seed``.
    fair = models.JSONField(null=True, blank=True)
    # The engine state spectators are shown, behind the game (``games.spectators``);
    # empty until the first move, when they see the deal as it stands.
    watch_state = models.JSONField(null=True, blank=True)
    # Until when someone may be watching: each spectator socket pushes it on when it
    # connects and at each renewal; a table nobody watches publishes no spectator
    # frame (``games.spectators``).
    watched_until = models.DateTimeField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    clock_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="seconds per decision; empty = no clock"
    )
    # Each seat's time bank for the match (``Seat.bank_ms``), drawn on once a turn's
    # clock has run out (``games.bank``).
    bank_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="each seat's time bank; empty = none"
    )
    bot_delay_ms = models.PositiveIntegerField(default=800)
    hand_pause_seconds = models.PositiveSmallIntegerField(default=20)
    # The next timed job: what it is and when it is due (the sweep's safety net).
    timer = models.CharField(max_length=10, choices=Timer.choices, blank=True)
    timer_seat = models.SmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.variant}, {self.mode}, {self.status})"


class Seat(models.Model):
    """A place at a table, held by a player or a computer player."""

    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    # No foreign key in the database: the user lives in the users' database, which
    # need not be the table store's (games/stores.py); PROTECT still holds in Django.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        db_constraint=False,
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    simulated = models.BooleanField(
        default=False, help_text="a computer player filling an online table"
    )
    # A bot account's seat (``accounts.bots``), written at seating like ``name``: the
    # table store holds no account row, and a seat played before an upgrade was a
    # person's. Labelled as a computer wherever the seat is shown.
    program = models.BooleanField(
        default=False, help_text="a bot account's seat, played by a program"
    )
    # The seat's name in the table store (games/stores.py), which holds no user row:
    # the player's username as they sat down (usernames do not change), a simulated
    # player's generated name, blank for a computer player.
    name = models.CharField(
        max_length=150,  # a username's
        blank=True,
        help_text="the username, or a simulated player's generated name",
    )
    connected = models.BooleanField(default=False)
    # The last socket closed: the seat shows as connected until then, so that a page
    # reload does not flash it offline (``games.services.seats.seat_presence``).
    offline_at = models.DateTimeField(null=True, blank=True)
    away = models.BooleanField(default=False)
    # What is left of the seat's time bank; empty while untouched (the table's whole
    # ``bank_seconds``), so no seating path has to fill it in (``games.bank``).
    bank_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="time bank left, ms; empty = all of it"
    )
    forfeited = models.BooleanField(default=False)
    # Written once when the match ends.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    unpaid = models.CharField(
        max_length=10,
        blank=True,
        help_text="why the seat's owner earns nothing (RULES.md §5): standin, alone",
    )

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="seat_unique_position"
            ),
            models.UniqueConstraint(fields=["table", "user"], name="seat_one_per_user"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot_level="")
                | (models.Q(user__isnull=True) & ~models.Q(bot_level="")),
                name="seat_player_or_bot",
            ),
        ]
        indexes = [
            models.Index(
                fields=["offline_at"],
                name="seat_offline_due",
                condition=models.Q(offline_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


class FinishStep(models.Model):
    """One consequence a finished table owes (rewards, ratings, pot, ...).

    Written in the final move's own transaction, one row per consequence that
    applies to the table's mode; ``done_at`` is set in the same transaction as the
    consequence's own writes, so each is applied exactly once, and the sweep
    completes whatever a crash left undone.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="finish_steps"
    )
    name = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "name"], name="finish_step_unique_name"
            )
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                name="finish_step_undone",
                condition=models.Q(done_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"table {self.table_id}: {self.name}"


class TableEvent(models.Model):
    """One accepted action, in order. Replaying seed + log reproduces the state."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    actor = models.CharField(
        max_length=10, help_text="player, bot, clock (stand-in bot) or server"
    )
    action = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_unique_seq")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} #{self.seq}"


class ChainReserve(models.Model):
    """A hash chain of the fair deal drawn ahead of its table (RULES.md §1.1): its
    secret top ``h_L`` and commitment ``h_0``, never shown. A table that takes it
    deletes the row in the transaction that creates the table, so each chain serves
    exactly one table; a rolled-back creation puts it back, still unseen
    (``games.fairness.chains_take``)."""

    top = models.CharField(max_length=64)  # hex
    commitment = models.CharField(max_length=64)  # hex

    def __str__(self) -> str:
        return f"reserved chain {self.pk}"


class HandReview(models.Model):
    """The review of one finished hand of a table (docs/review.md), computed once
    by the worker (``games.reviews``) and kept: at most one row per hand.

    ``result`` is ``games.review.export.review_to_json``'s data; it stays while a
    deeper review of the same hand is computed, which then replaces it."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the worker")
        RUNNING = "running", _("Being computed")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Could not be computed")

    class Depth(models.TextChoices):
        STANDARD = "standard", _("Standard")
        DEEP = "deep", _("Deep")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reviews")
    hand = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(default=0)
    depth = models.CharField(
        max_length=10, choices=Depth.choices, default=Depth.STANDARD
    )
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)
    # Who asked for the deeper review (the rate limit counts per player).
    deep_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "hand"], name="hand_review_unique_hand"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} hand {self.hand}: {self.status}"


class OfflineGame(models.Model):
    """A practice game played in the browser with no connection, then uploaded by
    its player (``games.offline_upload``); its ``table`` is the finished practice
    table the server's replay rebuilt, so it counts in the practice record and
    opens in the history like any other.

    One game counts once: a player sends each game under the id their browser gave
    it, and its deal's secret (``seed``, 32 random bytes drawn by that browser)
    names one game whoever sends it."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="offline_game"
    )
    # Like ``Seat.user``: a plain id in the table store (games/stores.py).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        db_constraint=False,
    )
    client_id = models.UUIDField(help_text="the id the player's browser gave the game")
    seed = models.CharField(max_length=64, help_text="the deal's secret, as hex")
    # When the player's device says the game ended (never in the future).
    finished_at = models.DateTimeField()
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "client_id"], name="offline_game_once_per_player"
            ),
            models.UniqueConstraint(fields=["seed"], name="offline_game_one_deal"),
        ]

    def __str__(self) -> str:
        return f"offline game {self.client_id} (table {self.table_id})"
