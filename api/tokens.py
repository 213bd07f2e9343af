"""Personal access tokens: made, revoked and checked (the secret is never stored)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.bots import user_is_bot
from api.errors import ApiError
from api.models import ApiToken

# Every secret starts with this, so that a leaked one is easy to recognise (and
# to search for in code).
SECRET_START = "dom_"
PREFIX_LENGTH = len(SECRET_START) + 6
# ``last_used_at`` is written at most this often per token: not one write a request.
LAST_USED_STEP = timedelta(minutes=1)


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def tokens_live(*, owner: User) -> list[ApiToken]:
    """The owner's tokens not revoked, newest first."""
    return list(
        ApiToken.objects.filter(owner=owner, revoked_at__isnull=True).order_by(
            "-created_at", "-pk"
        )
    )


@transaction.atomic
def token_create(
    *, owner: User, name: str, scopes: Sequence[str]
) -> tuple[ApiToken, str]:
    """A new token and its secret (shown once: only its hash is kept).

    Refused (``ApiError``, nothing made): no name, no or unknown scopes, the
    ``bot`` scope for an account that is not a bot, and more than
    ``API_TOKENS_PER_PLAYER`` live tokens.
    """
    name = name.strip()
    if not name or len(name) > 60:
        raise ApiError(
            400, "bad_name", gettext("Give the token a name of 1 to 60 characters.")
        )
    wanted = sorted(set(scopes))
    if not wanted or any(s not in ApiToken.Scope.values for s in wanted):
        raise ApiError(
            400,
            "bad_scopes",
            gettext("Choose what the token may do: read, play or bot."),
        )
    if ApiToken.Scope.BOT in wanted and not user_is_bot(user_id=owner.pk):
        raise ApiError(
            403,
            "not_bot",
            gettext("Only a bot account can make a token with the bot scope."),
        )
    # The owner's row lock: two requests at once cannot both take the last place.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    cap = settings.API_TOKENS_PER_PLAYER
    if ApiToken.objects.filter(owner=owner, revoked_at__isnull=True).count() >= cap:
        raise ApiError(
            409,
            "too_many_tokens",
            ngettext(
                "You have %(count)d token already, the most one may hold: revoke "
                "one first.",
                "You have %(count)d tokens already, the most one may hold: revoke "
                "one first.",
                cap,
            )
            % {"count": cap},
        )
    secret = SECRET_START + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        owner=owner,
        name=name,
        scopes=" ".join(wanted),
        digest=token_digest(secret),
        prefix=secret[:PREFIX_LENGTH],
    )
    return token, secret


def token_revoke(*, owner: User, token_id: int) -> None:
    """Revoke one of the owner's tokens (at once: its next request is refused)."""
    changed = ApiToken.objects.filter(
        pk=token_id, owner=owner, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    if not changed:
        raise ApiError(404, "no_token", gettext("There is no such token."))


def token_check(*, secret: str) -> ApiToken:
    """The live token whose secret this is, or ``ApiError`` 401 in words."""
    token = (
        ApiToken.objects.filter(digest=token_digest(secret))
        .select_related("owner")
        .first()
    )
    if token is None or token.revoked_at is not None or not token.owner.is_active:
        raise ApiError(
            401,
            "bad_token",
            gettext("This token is not valid: it was revoked or never existed."),
        )
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_STEP:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
