"""Personal access tokens of the open API (docs/api.md).

Only the SHA-256 hash of a token's secret is kept: the secret is shown to its owner
once, when the token is made, and a stolen database names no usable token. The short
``prefix`` (the secret's first characters) lets the owner tell their tokens apart.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """A player's token for their own programs: what it may do is its ``scopes``."""

    class Scope(models.TextChoices):
        READ = "read", _("Read profiles, games and records")
        PLAY = "play", _("Play: start games, stream them and make moves")
        BOT = "bot", _("Play as a bot account")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    # The scope values, space-separated ("read play").
    scopes = models.CharField(max_length=40)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "revoked_at"])]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.owner_id})"

    def scope_list(self) -> list[str]:
        return self.scopes.split()


from api.bot_models import *  # noqa: E402, F403
