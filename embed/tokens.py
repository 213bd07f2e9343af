"""The token a frame holds: which table it plays and as which guest.

Signed with the site's secret (``django.core.signing``, salt ``embed``): a token
changed by hand fails its signature, and one for a purged game names no
``EmbedGame``. It carries ids only; nothing a player could learn from it helps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.utils.translation import gettext

from embed.errors import EmbedError

SALT = "embed"
# Longer than any embedded game lives (``embed.purge``): the purge ends them first.
MAX_AGE = 30 * 24 * 3600


@dataclass(frozen=True, slots=True)
class TokenClaim:
    table_id: int
    guest_id: int


def token_make(*, table_id: int, guest_id: int) -> str:
    return signing.dumps({"t": table_id, "g": guest_id}, salt=SALT, compress=True)


def token_read(token: str) -> TokenClaim:
    """The claim of a token we signed; ``EmbedError`` for anything else."""
    try:
        data = signing.loads(str(token), salt=SALT, max_age=MAX_AGE)
        claim = TokenClaim(table_id=int(data["t"]), guest_id=int(data["g"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise EmbedError(
            "bad_token",
            gettext("This game can no longer be continued. Start a new game."),
        ) from None
    return claim
