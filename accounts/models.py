"""A player's settings kept in the database (who is online is not: see
``accounts.presence``)."""

from django.conf import settings
from django.db import models


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
