"""Fixtures of the matchmaking tests."""

from __future__ import annotations

import pytest

from tests.matchmaking.stakes.helpers import stakes_unlocked_fixture  # noqa: F401


@pytest.fixture
def lobby_frames(monkeypatch):
    """Record every (group, message) sent to lobby sockets."""
    from matchmaking.pools import notify

    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(notify, "lobby_send", lambda msgs: sent.extend(msgs))
    return sent


@pytest.fixture
def no_wave_tasks(monkeypatch):
    """Waves queued "at once" are recorded, not sent to a broker."""
    from matchmaking.pools import services

    queued: list[str] = []
    monkeypatch.setattr(services, "_wave_soon", queued.append)
    return queued


@pytest.fixture
def stake_quiet(monkeypatch, queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer for stake tests: jobs and frames recorded."""
    from matchmaking.stakes import services as stakes

    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


@pytest.fixture(autouse=True)
def stakes_open(stakes_unlocked):
    """Every stake open to the new players these tests make: the tests of stakes
    unlocked by play (tests/matchmaking/stakes/test_unlock.py) set the table."""
