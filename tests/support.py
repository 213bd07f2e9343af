"""Helpers shared by test modules (fixtures live in conftest.py files)."""

from django.db import connection


def database_url_of_tests() -> str:
    """The URL of the test database, for server processes the tests start."""
    db = connection.settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}"
        f"/{db['NAME']}"
    )
