"""A player's settings kept in the database (who is online is not: see
``accounts.presence``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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


class Sighting(models.Model):
    """A client address or device cookie a player was seen with (RULES.md §5).

    Accounts seen from one address or one device are *linked* and never sit at
    one stake or event table together (``accounts.links``). ``digest`` is an HMAC
    of the address or the cookie's token under the site's secret key: it matches
    equal values without keeping the address. Each player keeps the most recent
    few of each kind for a bounded time (``accounts.sightings``).
    """

    class Kind(models.TextChoices):
        ADDRESS = "address", _("Address")
        DEVICE = "device", _("Device")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sightings",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    digest = models.CharField(max_length=64)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "digest"], name="sighting_once_per_user"
            )
        ]
        indexes = [
            models.Index(fields=["digest", "last_seen"]),
            models.Index(fields=["user", "kind", "last_seen"]),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.digest[:8]}"


class BotAccount(models.Model):
    """An account upgraded to a bot: it plays only through the API, always shown as a
    computer, rated among bots only, and never earns coins or league points. The
    upgrade is irreversible (docs/api.md)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_account",
    )
    upgraded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot {self.user_id}"
