"""Games played in a frame on another site."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Table


class EmbedGame(models.Model):
    """A practice table played in a frame by a guest with no account.

    The guest is an inactive user with an unusable password, made for this one
    table: it can never sign in, is listed nowhere, and earns nothing (practice
    pays nothing). The frame holds a signed token naming both (``embed.tokens``).
    """

    # Kept when its table is deleted some other way, so the purge still finds the
    # guest to delete.
    table = models.OneToOneField(
        Table,
        null=True,
        on_delete=models.SET_NULL,
        related_name="embed_game",
    )
    guest = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="embed_game"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"embedded game of table {self.table_id}"
