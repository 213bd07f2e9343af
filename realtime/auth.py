"""Who is on a socket, found out after the handshake is answered.

Channels' ``AuthMiddlewareStack`` loads the session and the user from the database
before the consumer runs, so a slow database holds the handshake unanswered, and
daphne drops one left so for 5 s. ``LazyAuthMiddlewareStack`` puts the same
``scope["user"]`` in place unresolved, with a resolver beside it
(``scope[USER_RESOLVER]``): the consumer accepts first, then awaits
``SocketConsumer.scope_user()``. Reading ``scope["user"]`` before that raises
(channels' ``UserLazyObject``: "Accessing scope user before it is ready").

A consumer that needs only the player's id and name (the presence socket every
page opens) may resolve them from a cached identity instead
(``scope_user(cached=True)``): the user's id and name with the session hash their
password gives, kept for ``IDENTITY_SECONDS`` after a socket read the user from the
database. A session is trusted on it only as Django trusts one: its backend
listed, its hash equal to the user's. Saving or deleting the user forgets the
identity (``identity_receivers_connect``), so a new password or a deactivation
counts at once; a write that bypasses ``save()`` counts within ``IDENTITY_SECONDS``.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_delete, post_save
from django.utils.crypto import constant_time_compare
from django.utils.functional import empty

# The scope key of the awaitable that loads the socket's user.
USER_RESOLVER = "user_resolver"
# Seconds a cached identity is trusted: the bound on a password or ``is_active``
# written without ``save()`` (bulk updates); saves forget it at once.
IDENTITY_SECONDS = 600


def _identity_key(user_id: Any) -> str:
    return f"socket-identity:{user_id}"


# Seconds a forgotten identity stays forgotten: a socket that read the user just
# before a save must not cache what it read after the save forgot it (the read
# and the caching are two hops to a thread, milliseconds apart).
FORGOTTEN_SECONDS = 10


def _identity_remember(user: Any) -> None:
    if getattr(user, "is_authenticated", False):
        # ``add``: never over a newer identity, nor over a forgotten one.
        cache.add(
            _identity_key(user.pk),
            {"hash": user.get_session_auth_hash(), "name": user.get_username()},
            IDENTITY_SECONDS,
        )


def identity_forget(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A receiver: the user changed (password, name, ``is_active``) or is gone. A
    new user has no identity yet, and a sign-in's save of ``last_login`` alone
    changes nothing an identity holds."""
    fields = kwargs.get("update_fields")
    if kwargs.get("created") or (fields and set(fields) <= {"last_login"}):
        return
    cache.set(_identity_key(instance.pk), {"hash": None}, FORGOTTEN_SECONDS)


def identity_receivers_connect() -> None:
    """Forget a user's cached identity whenever the user is saved or deleted (from
    an ``AppConfig.ready``, so every process that can change a user does)."""
    model = get_user_model()
    post_save.connect(identity_forget, sender=model, dispatch_uid="identity.save")
    post_delete.connect(identity_forget, sender=model, dispatch_uid="identity.del")


def _identity_user(scope: dict[str, Any]) -> Any:
    """The session's user from the cached identity: a user with only ``id`` and
    the name loaded; ``AnonymousUser`` without a signed-in session; None when the
    identity is not cached or does not match the session's hash."""
    session = scope["session"]
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend = session[BACKEND_SESSION_KEY]
    except KeyError:
        return AnonymousUser()
    if backend not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    known = cache.get(_identity_key(user_id))
    session_hash = session.get(HASH_SESSION_KEY)
    if not known or not known["hash"] or not session_hash:
        return None
    if not constant_time_compare(session_hash, known["hash"]):
        return None
    model = get_user_model()
    names = ["id", model.USERNAME_FIELD]
    return model.from_db(DEFAULT_DB_ALIAS, names, [user_id, known["name"]])


async def user_identity(scope: dict[str, Any]) -> Any:
    """The socket's user as ``get_user`` finds it, from the cached identity when it
    matches the session (no database statement), else read and then cached."""
    user = await database_sync_to_async(_identity_user)(scope)
    if user is not None:
        return user
    user = await get_user(scope)
    await database_sync_to_async(_identity_remember)(user)
    return user


class LazyAuthMiddleware(AuthMiddleware):  # type: ignore[misc]
    """``AuthMiddleware`` that leaves the user to be loaded when asked for."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        lazy = scope["user"]

        async def resolve(cached: bool = False) -> Any:
            if lazy._wrapped is empty:
                lazy._wrapped = await (user_identity if cached else get_user)(scope)
            return lazy

        scope[USER_RESOLVER] = resolve


def LazyAuthMiddlewareStack(inner: Any) -> Any:
    """Cookies, the session (its key only: the store loads on first use) and the
    lazy user, around ``inner``: no database work before the consumer runs."""
    return CookieMiddleware(SessionMiddleware(LazyAuthMiddleware(inner)))
