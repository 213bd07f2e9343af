"""Presence: which players have a live connection to the site."""

from django.conf import settings
from django.db import models


class Presence(models.Model):
    """One open WebSocket of a signed-in player (a player may have several)."""

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences"
    )
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "seen_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.channel_name}"


class Profile(models.Model):
    """A player's settings that outlive a browser: for now, the chosen language."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="profile",
    )
    # Blank until the player picks one; then every browser they sign in on follows it.
    language = models.CharField(max_length=8, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or '-'}"
