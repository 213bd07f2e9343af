"""Who is on a socket, found out after the handshake is answered.

Channels' ``AuthMiddlewareStack`` loads the session and the user from the database
before the consumer runs, so a slow database holds the handshake unanswered, and
daphne drops one left so for 5 s. ``LazyAuthMiddlewareStack`` puts the same
``scope["user"]`` in place unresolved, with a resolver beside it
(``scope[USER_RESOLVER]``): the consumer accepts first, then awaits
``SocketConsumer.scope_user()``. Reading ``scope["user"]`` before that raises
(channels' ``UserLazyObject``: "Accessing scope user before it is ready").
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.utils.functional import empty

# The scope key of the awaitable that loads the socket's user.
USER_RESOLVER = "user_resolver"


class LazyAuthMiddleware(AuthMiddleware):  # type: ignore[misc]
    """``AuthMiddleware`` that leaves the user to be loaded when asked for."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        lazy = scope["user"]

        async def resolve() -> Any:
            if lazy._wrapped is empty:
                lazy._wrapped = await get_user(scope)
            return lazy

        scope[USER_RESOLVER] = resolve


def LazyAuthMiddlewareStack(inner: Any) -> Any:
    """Cookies, the session (its key only: the store loads on first use) and the
    lazy user, around ``inner``: no database work before the consumer runs."""
    return CookieMiddleware(SessionMiddleware(LazyAuthMiddleware(inner)))
