"""Fixtures of the Swiss event tests."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def no_presence_left():
    """No page presence left in the cache by an earlier run (on Redis the keys
    outlive a test database whose ids start again from 1)."""
    cache.clear()
