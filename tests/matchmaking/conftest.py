"""Fixtures of the matchmaking tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def lobby_frames(monkeypatch):
    """Record every (group, message) sent to lobby sockets."""
    from matchmaking import notify

    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(notify, "lobby_send", lambda msgs: sent.extend(msgs))
    return sent


@pytest.fixture
def no_wave_tasks(monkeypatch):
    """Waves queued "at once" are recorded, not sent to a broker."""
    from matchmaking import services

    queued: list[str] = []
    monkeypatch.setattr(services, "_wave_soon", queued.append)
    return queued
