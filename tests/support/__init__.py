"""Helpers shared by test modules and benchmarks (fixtures live in conftest.py files).

Here: the test database's URL and a signed-in session cookie, for servers and sockets.
``positions``: engine positions, hand-built or reached by seeded play.
``tables``: tables driven through their services, without sockets or a worker.
``servers``: daphne and a Celery worker as subprocesses.
"""

import os

from django.conf import settings
from django.db import connection
from django.test import Client


def database_url_of_tests() -> str:
    """The URL of the test database, for server processes the tests start."""
    db = connection.settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}"
        f"/{db['NAME']}"
    )


def server_env() -> dict[str, str]:
    """The environment of a server process the tests start: this one's, on the test
    database and with this process's Redis prefix (the default prefix is the
    database's name, which differs for the test database)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url_of_tests(),
        "DEPLOYMENT_PREFIX": settings.DEPLOYMENT_PREFIX,
    }


def session_cookie(user) -> str:
    """A ``Cookie`` header value that signs ``user`` in (for sockets in tests)."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"
