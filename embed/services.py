"""Embedded games: start one for a new guest, find it again from its token, purge.

A new game is a practice table made by ``games.services.table_practice_create``,
the path of the Play page, so its rules, computer players and expiry
(``games.expiry``) are those of any practice game; practice pays no coins or XP.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils import timezone
from django.utils.translation import gettext

from embed.errors import EmbedError
from embed.limits import embed_rate_take
from embed.models import EmbedGame
from embed.params import EmbedChoice
from embed.tokens import token_make, token_read
from games.models import Table
from games.services import table_practice_create

logger = logging.getLogger(__name__)

# How long an ended embedded game stays, so a reload still shows its result.
KEEP_ENDED = timedelta(hours=6)
PURGE_BATCH = 200
ENDED = (Table.Status.FINISHED, Table.Status.CANCELLED)


@dataclass(frozen=True, slots=True)
class EmbedStarted:
    game: EmbedGame
    token: str


def _guest_make() -> User:
    """An inactive user with no password: it can never sign in."""
    while True:
        name = f"Guest-{secrets.token_hex(4)}"
        if not User.objects.filter(username__iexact=name).exists():
            break
    guest = User(username=name, is_active=False)
    guest.set_unusable_password()
    guest.save()
    return guest


@transaction.atomic
def embed_game_create(*, choice: EmbedChoice, address: str) -> EmbedStarted:
    """A new guest seated at a new practice table of ``choice``, and its token.

    Counts against the address's hourly limit first (``EmbedError`` past it).
    """
    embed_rate_take(address=address)
    guest = _guest_make()
    table = table_practice_create(user=guest, **choice.practice_arguments())
    game = EmbedGame.objects.create(table=table, guest=guest)
    return EmbedStarted(
        game=game, token=token_make(table_id=table.pk, guest_id=guest.pk)
    )


def embed_game_find(*, token: str) -> EmbedGame:
    """The game a token names; ``EmbedError`` for a bad token or a purged game."""
    claim = token_read(token)
    game = (
        EmbedGame.objects.select_related("table", "guest")
        .filter(table_id=claim.table_id, guest_id=claim.guest_id)
        .exclude(table__isnull=True)
        .first()
    )
    if game is None:
        raise EmbedError(
            "no_game",
            gettext("This game can no longer be continued. Start a new game."),
        )
    return game


def embed_games_purge(
    *, now: datetime | None = None, keep: timedelta = KEEP_ENDED
) -> int:
    """Delete the embedded games that ended more than ``keep`` ago (their table,
    moves and guest), and those whose table is gone; how many guests went.

    Idle games end as any practice table does (``games.expiry`` cancels them), and
    are purged here after that. Each game goes in its own transaction.
    """
    now = now or timezone.now()
    cutoff = now - keep
    games = list(
        EmbedGame.objects.filter(
            Q(table__isnull=True)
            | Q(table__status__in=ENDED, table__finished_at__lt=cutoff)
            | Q(table__status__in=ENDED, table__finished_at__isnull=True)
        ).values_list("pk", "table_id", "guest_id")[:PURGE_BATCH]
    )
    return sum(
        _purge_one(game_id=pk, table_id=table_id, guest_id=guest_id)
        for pk, table_id, guest_id in games
    )


def _purge_one(*, game_id: int, table_id: int | None, guest_id: int) -> int:
    try:
        with transaction.atomic():
            if table_id is not None:
                Table.objects.filter(pk=table_id).delete()
            EmbedGame.objects.filter(pk=game_id).delete()
            User.objects.filter(pk=guest_id, is_active=False).delete()
    except ProtectedError:
        logger.warning("the guest of embedded game %s is still referenced", game_id)
        return 0
    return 1
