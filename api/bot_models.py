"""The bots' own queue for rated games among bots (``api.bot_queue``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

__all__ = ["BotSeek"]


class BotSeek(models.Model):
    """A bot account's seek for a rated game among bots: one per bot.

    Waiting while ``table_id`` is empty; paired once it names the table the bot was
    seated at (kept, so a repeated seek answers that table rather than queueing
    the bot twice).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_seek",
    )
    pool = models.CharField(max_length=40)
    speed = models.CharField(max_length=20)
    created_at = models.DateTimeField(db_index=True)
    # Like ``Seat.user``: a plain id, the table may live in another store.
    table_id = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["pool", "speed", "created_at"],
                name="bot_seek_waiting",
                condition=models.Q(table_id__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"bot seek of {self.user_id} ({self.pool})"
