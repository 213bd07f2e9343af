"""Fixtures of the sit-and-go tests."""

from __future__ import annotations

import pytest

from tests.matchmaking.stakes.helpers import stakes_unlocked_fixture  # noqa: F401


@pytest.fixture(autouse=True)
def stakes_open(stakes_unlocked):
    """Players here hold stake seats to test commitments: every stake open to
    them (stakes unlocked by play are tested with the stakes)."""
