"""Shared fixtures and the rule for service tests.

Tests marked ``services`` need the real PostgreSQL and Redis (``DATABASE_URL`` and
``REDIS_URL``). Locally they skip when those are not configured; with
``REQUIRE_SERVICES`` set (CI) a missing service is a failure, never a skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.support import server_env

ROOT = Path(__file__).resolve().parent.parent


def services_available() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql") and bool(
        settings.REDIS_URL
    )


def pytest_configure(config: pytest.Config) -> None:
    # A server starts the in-process worker when it imports config.asgi; tests start
    # it themselves (``celery_worker_running``), without beat, so that no periodic job
    # touches the database between tests.
    if settings.configured:
        settings.EMBEDDED_WORKER = False
        # Tables made by tests deal at once from their integer seed, as before fair
        # deals; the tests of the fair deal turn it on (``fair_deals``).
        settings.GAMES_FAIR_DEALS = False
        # Users are made by the hundred; the real hasher stays second, so hashes of
        # either kind verify (tests/support/hashers.py).
        settings.PASSWORD_HASHERS = [
            "tests.support.hashers.FastPBKDF2PasswordHasher",
            *settings.PASSWORD_HASHERS,
        ]
        # Templates name static files as they are: nothing is collected for tests,
        # nor for the servers they start (the browser tests' server collects).
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {
                "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
            },
        }
        os.environ.setdefault("STATIC_MANIFEST", "false")
        # A player's last page closing takes them offline after a short grace
        # (accounts.presence): short here, so that tests of going offline wait
        # a fraction of a second; the grace itself is tested with its own value.
        settings.PRESENCE_OFFLINE_GRACE_SECONDS = 0.2
        # Servers and workers the tests start get the test database's URL, whose
        # name would give them another default prefix than this process's: they
        # share this one, so they hear this process's groups and queue.
        os.environ.setdefault("DEPLOYMENT_PREFIX", settings.DEPLOYMENT_PREFIX)


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    if services_available():
        return
    if os.environ.get("REQUIRE_SERVICES"):
        raise pytest.UsageError(
            "REQUIRE_SERVICES is set but DATABASE_URL/REDIS_URL do not point at "
            "PostgreSQL and Redis: service tests may not skip."
        )
    skip = pytest.mark.skip(reason="needs DATABASE_URL and REDIS_URL")
    for item in items:
        if item.get_closest_marker("services"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def english_at_the_start():
    """Each test starts in English. A request leaves its language active in the
    thread (as Django's LocaleMiddleware does), and ``reverse()`` of a public page
    names that language's address (/es/rules/): one test's last request must not
    choose the addresses of the next."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def make_user(django_user_model):
    """Create a player with a verified e-mail address."""
    from allauth.account.models import EmailAddress

    counter = iter(range(1, 10_000))

    def make(username: str | None = None, password: str = "a-Long-pass-42", **extra):
        name = username or f"player{next(counter)}"
        user = django_user_model.objects.create_user(
            username=name,
            email=f"{name.lower()}@example.com",
            password=password,
            **extra,
        )
        EmailAddress.objects.create(
            user=user, email=user.email, primary=True, verified=True
        )
        return user

    return make


@pytest.fixture
def funded(make_user):
    """A new player with ``coins`` in the wallet (minted for the test)."""
    from tests.economy.conftest import fund

    def make(coins: int = 1000):
        user = make_user()
        fund(user.pk, coins)
        return user

    return make


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker):
    """The embedded default's in-process worker, or a real ``celery worker`` process.

    On the distributed set-up the worker is a separate process on the same Redis, as in
    production, pointed at the test database; it is stopped at the end of the session.
    """
    if settings.EMBEDDED:
        from config.embedded_worker import embedded_worker_alive, embedded_worker_start

        embedded_worker_start(beat=False)
        assert embedded_worker_alive()
        yield "embedded"
        return
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            "-n",
            f"tests-{os.getpid()}@localhost",  # the name celery_worker_running asks
        ],
        cwd=ROOT,
        env=server_env(),
    )
    from config.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        assert proc.poll() is None, "the celery worker exited"
        assert time.monotonic() < deadline, "the celery worker did not come up"
    yield "process"
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture
def celery_worker_running(celery_worker_session):
    """The worker, for one test, left with nothing in hand when the test ends.

    A task still running when the test's database is flushed holds row locks that
    the flush's TRUNCATE then deadlocks with, failing the next test too; so the
    teardown waits until the worker answers between tasks with none reserved (the
    solo pool answers control commands only between tasks).
    """
    yield celery_worker_session
    if celery_worker_session != "process":
        return
    from config.celery import app

    worker = f"tests-{os.getpid()}@localhost"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        reserved = app.control.inspect(
            destination=[worker], timeout=1, limit=1
        ).reserved()
        if reserved and not any(reserved.values()):
            return
        time.sleep(0.1)


@pytest.fixture
def queued(monkeypatch):
    """Record timed jobs instead of sending them to a broker (task bodies are called
    directly in these tests)."""
    from games.services import transitions

    jobs: list[tuple[int, int]] = []
    monkeypatch.setattr(
        transitions,
        "tick_job",
        lambda tid, seq, deadline, **kw: jobs.append((tid, seq)),
    )
    return jobs


@pytest.fixture
def pushes(monkeypatch):
    """Record every (group, message) the outbox hands to the channel layer; a
    commit's packed frames (``realtime.outbox``) one by one, as
    (``<group>.<subject>``, ``{"type", "seq", "subject", "text"}``), so a test reads
    what each seat's and the spectators' connections take."""
    from realtime import outbox

    sent: list[tuple[str, dict]] = []

    def record(messages):
        for group, message in messages:
            if message.get("type") != outbox.FRAMES_TYPE:
                sent.append((group, message))
                continue
            for subject, text in message["texts"].items():
                sent.append(
                    (
                        f"{group}.{subject}",
                        {
                            "type": outbox.FRAMES_TYPE,
                            "seq": message["seq"],
                            "subject": subject,
                            "text": text,
                        },
                    )
                )

    monkeypatch.setattr(outbox, "_group_send", record)
    return sent


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel-layer instance per test.

    channels_redis binds its locks to the event loop that first used them; every
    async test (and every ``async_to_sync`` call) runs on a loop of its own, so a
    layer shared across tests fails with "bound to a different event loop".
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_socket_sets():
    """No socket counted by an earlier test (SQLite reuses table ids)."""
    from django.conf import settings

    from realtime.socket_sets import socket_sets_forget

    def forget() -> None:
        socket_sets_forget()
        if settings.REDIS_URL:
            # The online players' set is one key for the whole deployment: a
            # socket an earlier test left open would count in the next one.
            import redis

            client = redis.Redis.from_url(settings.REDIS_URL)
            pattern = f"{settings.DEPLOYMENT_PREFIX}:sockets:presence:*"
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)
            client.close()

    forget()
    yield
    forget()


@pytest.fixture(autouse=True)
def fresh_local_cache():
    """No cached counter of an earlier test: SQLite reuses user and table ids, so a
    key such as a user's wrong room codes would carry over to another test's
    user. The in-memory cache only; a Redis cache is shared with the test's own
    servers (and PostgreSQL does not reuse ids)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
