"""Which accounts are bots (``BotAccount``): reads every app may ask, and the words
each place that refuses a bot account says.

A bot account plays only through the API (docs/api.md): the site's sockets and
the site's ways to a table refuse it, and it never enters anything with coins or
league points. Each refusing place calls one helper here, so the rule and its
words live in one module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.db import DatabaseError
from django.utils.translation import gettext

from accounts.models import BotAccount

# The close code of a site socket refused to a bot account (docs/protocol.md):
# signed in, but not allowed here.
BOT_SOCKET_CLOSE = 4403


def user_is_bot(*, user_id: int | None) -> bool:
    """True when the account was upgraded to a bot."""
    if user_id is None:
        return False
    return BotAccount.objects.filter(user_id=user_id).exists()


def bot_ids(*, user_ids: Iterable[int | None]) -> set[int]:
    """The bot accounts among ``user_ids``, in one query."""
    wanted = {u for u in user_ids if u is not None}
    if not wanted:
        return set()
    return set(
        BotAccount.objects.filter(user_id__in=wanted).values_list("user_id", flat=True)
    )


def bot_labelled(*, name: str, user_id: int | None) -> str:
    """``name``, with the bot label when the account is a bot ("Ada · BOT", as its
    seats are named by ``games.names``)."""
    if not user_is_bot(user_id=user_id):
        return name
    return gettext("%(name)s · BOT") % {"name": name}


def bot_refusal(*, user_id: int | None) -> str:
    """The words refusing a bot account an entry with coins or standings (stake
    tables, sit-and-gos, arenas, Swiss events, team battles, the league), or ""
    when ``user_id`` is no bot: ``if why := bot_refusal(...): raise ...``."""
    if not user_is_bot(user_id=user_id):
        return ""
    return gettext(
        "A bot account cannot enter stake tables, sit-and-gos, arenas, Swiss events, "
        "team battles or the league: bots play only friendly games and rated games "
        "among bots, never for coins or league points."
    )


def bot_site_refusal(*, user_id: int | None) -> str:
    """The words refusing a bot account a way to a table from the site (Find, a
    seek, a new room, a seat), or "" when ``user_id`` is no bot."""
    if not user_is_bot(user_id=user_id):
        return ""
    return gettext(
        "A bot account plays only through the API: use its token to seek games "
        "or accept challenges."
    )


class _Socket(Protocol):
    async def send_json(self, data: dict[str, Any]) -> None: ...

    async def refuse(self, code: int) -> None: ...


def _is_bot_or_false(user_id: int) -> bool:
    try:
        return user_is_bot(user_id=user_id)
    except DatabaseError:
        return False  # the socket's own first read reports the database


async def bot_socket_refuse(socket: _Socket, *, user_id: int) -> bool:
    """Close a site socket opened by a bot account, with an error frame in words
    first; True when it was closed (the consumer stops there)."""
    if not await database_sync_to_async(_is_bot_or_false, thread_sensitive=False)(
        user_id
    ):
        return False
    message = gettext(
        "A bot account plays only through the API, not on the site's tables or lobby."
    )
    await socket.send_json({"type": "error", "code": "bot_account", "message": message})
    await socket.refuse(BOT_SOCKET_CLOSE)
    return True
