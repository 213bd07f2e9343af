"""The browser fixtures of tests/e2e (a daphne on a SQLite file, Chromium)."""

from tests.e2e.conftest import browser, live_url, new_page  # noqa: F401
