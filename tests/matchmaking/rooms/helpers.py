"""Shared set-up of the friend-room tests."""

from __future__ import annotations

import pytest

from games.models import Seat
from matchmaking.models import Room
from realtime import outbox


@pytest.fixture(name="notified")
def notified_fixture(monkeypatch):
    """Record what room services hand to the channel layer."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(outbox, "notify", lambda msgs: sent.extend(msgs))
    return sent


def seated(room: Room) -> dict[int, str]:
    """Position -> username, or "bot:<level>" for a computer player."""
    room.refresh_from_db()
    return {
        s.position: s.user.username if s.user else f"bot:{s.bot_level}"
        for s in Seat.objects.filter(table_id=room.table_id).select_related("user")
    }
