"""``/ws/embed/tables/<id>/?token=…&lang=…``: the table socket of an embedded game.

The table socket (``games.consumers.TableConsumer``) with one difference: its
player is the guest named by the frame's signed token, not the session's user (a
third-party frame sends no cookie). A token that is not ours, or names another
table or a purged game, is refused like a signed-out player (4401). ``lang`` sets
the language of the socket's messages, as the frame's ``?lang=`` does for the page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from accounts.language import language_supported
from embed.errors import EmbedError
from embed.services import embed_game_find
from games.consumers import TableConsumer
from realtime.db import database_call

_UNRESOLVED = object()


def _query(scope: dict[str, Any]) -> dict[str, str]:
    raw = scope.get("query_string", b"")
    text = raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)
    return {key: values[0] for key, values in parse_qs(text).items() if values}


def embed_guest(*, table_id: int, token: str) -> Any:
    """The guest whose token names ``table_id``, else ``None``."""
    try:
        game = embed_game_find(token=token)
    except EmbedError:
        return None
    return game.guest if game.table_id == table_id else None


class EmbedTableConsumer(TableConsumer):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        query = _query(scope)
        self.token = query.get("token", "")
        language = language_supported(query.get("lang"))
        if language:
            scope = {**scope, "language": language}
        self._guest: Any = _UNRESOLVED
        await super().__call__(scope, receive, send)

    async def scope_user(self) -> Any:
        """The token's guest (loaded once, after the handshake is accepted)."""
        if self._guest is _UNRESOLVED:
            self._guest = await database_call(embed_guest)(
                table_id=int(self.scope["url_route"]["kwargs"]["table_id"]),
                token=self.token,
            )
        return self._guest
