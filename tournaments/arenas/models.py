"""An arena, its players and its games (docs/tournaments.md, "Arenas")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from clubs.models import Club


class Arena(models.Model):
    """A timed event of one pool: free players are paired at once until it ends.

    ``schedule_key`` names a scheduled arena's slot (``<pool>@<start, UTC>``): its
    unique constraint is what lets two schedulers run at once and create each
    event once. Staff-created arenas have none and name their creator.
    """

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Starting soon")
        LIVE = "live", _("Live")
        ENDING = "ending", _("Last games")
        FINISHED = "finished", _("Finished")

    pool = models.CharField(max_length=40)
    variant = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField()
    partnership = models.BooleanField(default=False)
    options = models.JSONField(default=dict)
    starts_at = models.DateTimeField(db_index=True)
    ends_at = models.DateTimeField()
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.SCHEDULED, db_index=True
    )
    schedule_key = models.CharField(max_length=80, null=True, blank=True, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="arenas_created",
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change of the standings; ``standings_sent`` is the version the
    # sockets last received, at ``standings_sent_at`` (the push is throttled).
    standings_version = models.PositiveIntegerField(default=0)
    standings_sent = models.PositiveIntegerField(default=0)
    standings_sent_at = models.DateTimeField(null=True, blank=True)
    # A team battle (docs/tournaments.md, "Team battles"): clubs compete, each
    # player scoring for their club, a club's score the sum of its ``team_size``
    # best players' scores. None: an ordinary arena.
    team_size = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField(max_length=80, blank=True)
    clubs: models.ManyToManyField[Club, ArenaClub] = models.ManyToManyField(
        "clubs.Club", through="ArenaClub", blank=True, related_name="battles"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="arena_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return f"arena {self.pk} {self.pool} {self.starts_at:%Y-%m-%d %H:%M}"


class ArenaPlayer(models.Model):
    """One person in one arena: their score, streak and games.

    ``streak`` counts the wins in a row; from two on, the next win counts double.
    ``table_id`` is the arena table they sit at now (None: free, or paused).
    ``opponents`` and ``partners`` count the games with each other player (user id
    as a string → games); ``last_opponents`` are those of their latest game.
    """

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries"
    )
    score = models.IntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    performance_total = models.IntegerField(default=0)
    paused = models.BooleanField(default=False)
    table_id = models.BigIntegerField(null=True, blank=True)
    free_since = models.DateTimeField()
    joined_at = models.DateTimeField(auto_now_add=True)
    opponents = models.JSONField(default=dict)
    partners = models.JSONField(default=dict)
    last_opponents = models.JSONField(default=list)
    rank = models.PositiveIntegerField(null=True, blank=True)
    prize_coins = models.PositiveIntegerField(default=0)
    prize_xp = models.PositiveIntegerField(default=0)
    # In a team battle: the club the player scores for (chosen at the first join),
    # and the club prize paid at the end to its winning club's counted players.
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    club_prize_coins = models.PositiveIntegerField(default=0)
    club_prize_xp = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="arena_player_once")
        ]
        indexes = [models.Index(fields=["user", "arena"])]

    def __str__(self) -> str:
        return f"{self.user_id} in arena {self.arena_id}: {self.score}"

    @property
    def performance(self) -> int | None:
        return round(self.performance_total / self.games) if self.games else None


class ArenaGame(models.Model):
    """One table an arena seated; ``scored_at`` is set once its result counted."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="arena_game"
    )
    user_ids = models.JSONField(default=list)  # in seat order
    created_at = models.DateTimeField(auto_now_add=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["arena", "scored_at"])]

    def __str__(self) -> str:
        return f"arena {self.arena_id} table {self.table_id}"


class ArenaClub(models.Model):
    """A club in a team battle; ``score`` and ``rank`` written at its end."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="battle_entries"
    )
    score = models.IntegerField(default=0)
    rank = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "club"], name="arena_club_once")
        ]

    def __str__(self) -> str:
        return f"club {self.club_id} in arena {self.arena_id}"
