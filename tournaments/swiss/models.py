"""Swiss events: a fixed number of rounds at fixed times, each pairing players of
equal score who have not met (docs/tournaments.md, "Swiss events")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SwissEvent(models.Model):
    """One Swiss event of a two-seat pool's game.

    ``state`` and ``round`` are decided under this row's lock by every write
    (joining, withdrawing, a round starting, a game ending): ``scheduled`` until
    round 1 starts, ``running`` (``round`` is the round being played), then
    ``finished`` once the last round's games are over. Round ``r`` starts at
    ``starts_at + (r - 1) * round_minutes``, and not before round ``r - 1``'s
    games are all over.
    """

    class State(models.TextChoices):
        SCHEDULED = "scheduled", _("Taking entries")
        RUNNING = "running", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    pool = models.CharField(max_length=30, help_text="a two-seat online pool's key")
    variant = models.CharField(max_length=20)
    options = models.JSONField(help_text="engine options of every game")
    rounds = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(db_index=True)
    round_minutes = models.PositiveSmallIntegerField()
    # The club that runs it (its leaders made it); none for the staff's events.
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="swiss_events",
    )
    # Club-only: the club's members alone may join.
    members_only = models.BooleanField(default=False)
    # Coins each player pays to enter (0: free), into the pot ``swiss-<id>``.
    entry = models.PositiveIntegerField(default=0)
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.SCHEDULED, db_index=True
    )
    round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("Swiss event")
        verbose_name_plural = _("Swiss events")

    def __str__(self) -> str:
        return f"{self.name} ({self.state})"


class SwissEntry(models.Model):
    """A player in an event. ``withdrawn_at`` set: paired no more (their played
    games still count). ``rank`` and the tie-breaks are written at the finish."""

    event = models.ForeignKey(
        SwissEvent, on_delete=models.CASCADE, related_name="entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    rating = models.FloatField(default=0.0, help_text="the rating as they joined")
    rank = models.PositiveIntegerField(null=True, blank=True)
    payout = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="swiss_entry_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in swiss {self.event_id}"


class SwissGame(models.Model):
    """One pairing of a round: ``first`` (who opens) against ``second``, at
    ``table``; or ``first`` alone with a bye, or absent at the round's start.

    ``points`` is what ``first`` scored, in halves (2 a win, 1 a tie, 0 a loss;
    a bye 2, an absence 0); ``second`` scored ``2 - points``. A game in play has
    ``result`` ``playing``; its table's end writes it once.
    """

    class Result(models.TextChoices):
        PLAYING = "playing", _("Playing")
        PLAYED = "played", _("Played")
        FORFEIT = "forfeit", _("Won by forfeit")
        BYE = "bye", _("Bye")
        ABSENT = "absent", _("Absent")

    event = models.ForeignKey(
        SwissEvent, on_delete=models.CASCADE, related_name="games"
    )
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    first = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    second = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_constraint=False,
    )
    result = models.CharField(
        max_length=10, choices=Result.choices, default=Result.PLAYING
    )
    points = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "round", "number"], name="swiss_game_once"
            ),
        ]
        indexes = [models.Index(fields=["table"], name="swiss_game_table")]

    def __str__(self) -> str:
        return f"swiss {self.event_id} round {self.round} game {self.number}"
