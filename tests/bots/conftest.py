"""The bot tests need no database and no Django.

``tests/conftest.py`` reads Django settings while collecting; under
``pytest -p no:django`` nothing names the settings module, so name it here (the
settings are only read, never used by these tests).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import pytest

from games.bots.hard import budget


@pytest.fixture(autouse=True)
def no_safety_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hard``'s wall-clock safety stop off: the tests check the counted work
    and its decisions, which a loaded machine must not cut short."""
    monkeypatch.setattr(budget, "SAFETY", float("inf"))
