"""The presence socket's player from the cached identity (``realtime.auth``): no
database read once a socket has read the player, and never trusted past a change
of password or a deactivation, nor for a session whose hash does not match."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.asgi import application
from realtime import auth
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reads(monkeypatch):
    """How many times a socket read its user through channels' ``get_user``."""
    calls = []
    real = auth.get_user

    async def counted(scope):
        calls.append(1)
        return await real(scope)

    monkeypatch.setattr(auth, "get_user", counted)
    return calls


async def presence(cookie: str):
    comm = WebsocketCommunicator(
        application,
        "/ws/presence/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def signed_in(comm) -> bool:
    """True once the socket sends its count; False when it is closed with 4401."""
    out = await comm.receive_output(timeout=5)
    if out["type"] == "websocket.close":
        assert out["code"] == 4401
        return False
    return True


async def test_the_second_socket_reads_no_user(make_user, reads):
    ana = await database_sync_to_async(make_user)("ana")
    cookie = await database_sync_to_async(session_cookie)(ana)
    first = await presence(cookie)
    assert await signed_in(first)
    second = await presence(cookie)
    assert await signed_in(second)
    assert len(reads) == 1
    await first.disconnect()
    await second.disconnect()


def test_a_cached_identity_costs_no_statement(make_user):
    ana = make_user("ana")
    session = SessionStore(session_key=session_cookie(ana).split("=", 1)[1])
    auth._identity_remember(ana)
    with CaptureQueriesContext(connection) as sql:
        user = auth._identity_user({"session": session})
    assert (user.pk, user.username, user.is_authenticated) == (ana.pk, "ana", True)
    # The session itself came from the cache (``cached_db``): nothing was read.
    assert len(sql) == 0


def test_a_session_hash_that_does_not_match_is_not_trusted(make_user):
    ana = make_user("ana")
    session = SessionStore(session_key=session_cookie(ana).split("=", 1)[1])
    auth._identity_remember(ana)
    session[HASH_SESSION_KEY] = "not-" + session[HASH_SESSION_KEY]
    assert auth._identity_user({"session": session}) is None


@pytest.mark.parametrize("change", ["password", "deactivate"])
async def test_a_saved_change_is_seen_by_the_next_socket(make_user, reads, change):
    ana = await database_sync_to_async(make_user)("ana")
    cookie = await database_sync_to_async(session_cookie)(ana)
    first = await presence(cookie)
    assert await signed_in(first)

    def apply() -> None:
        if change == "password":
            ana.set_password("another-Long-pass-43")
        else:
            ana.is_active = False
        ana.save()

    await database_sync_to_async(apply)()
    second = await presence(cookie)
    assert not await signed_in(second)
    assert len(reads) == 2  # read again, and refused


async def test_signing_in_again_keeps_the_identity(make_user, reads):
    """A sign-in saves ``last_login`` only: the identity stays good."""
    ana = await database_sync_to_async(make_user)("ana")
    first = await presence(await database_sync_to_async(session_cookie)(ana))
    assert await signed_in(first)
    second = await presence(await database_sync_to_async(session_cookie)(ana))
    assert await signed_in(second)
    assert len(reads) == 1
    await first.disconnect()
    await second.disconnect()
