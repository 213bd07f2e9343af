"""Helpers of the sit-and-go tests: funded players, sit-and-gos filled and played."""

from __future__ import annotations

import random
from typing import Any

from games import services as table_services
from games.models import Seat, Table
from tests.economy.conftest import assert_sound as ledger_sound
from tests.economy.conftest import fund, snapshot
from tests.matchmaking.stakes.helpers import drive_to_last_move
from tournaments.sitgo.audit import sitgo_pots_audit
from tournaments.sitgo.models import SitGo, SitGoTable
from tournaments.sitgo.services import sitgo_enter

__all__ = ["assert_sound", "fill", "fund", "play_out", "snapshot"]


def assert_sound() -> None:
    """The ledger audit and the sit-and-go pots' audit are both clean."""
    ledger_sound()
    assert sitgo_pots_audit() == []


def fill(users: list[Any], *, entry: int = 100, size: int | None = None) -> SitGo:
    """Enter every user into the open sit-and-go of ``size`` players (as many as
    ``users`` by default)."""
    row = None
    for user in users:
        row = sitgo_enter(user=user, size=size or len(users), entry=entry)
    assert row is not None
    return SitGo.objects.get(pk=row.pk)


def play_out(table_id: int, *, seed: int = 1, capture: Any) -> None:
    """Play a sit-and-go table to its end at random; the finish consequences run
    (``capture`` is pytest-django's ``django_capture_on_commit_callbacks``)."""
    users = {
        s.position: s.user for s in Seat.objects.filter(table_id=table_id) if s.user
    }
    final = drive_to_last_move(table_id, users, rng=random.Random(seed))
    with capture(execute=True):
        table_services.table_act(
            table_id=table_id,
            user=final.user,
            action=final.action,
            expected_seq=final.seq,
        )
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED


def live_tables(row: SitGo, round_number: int | None = None) -> list[SitGoTable]:
    found = SitGoTable.objects.filter(sitgo=row).exclude(state=SitGoTable.State.VOID)
    if round_number is not None:
        found = found.filter(round=round_number)
    return list(found.order_by("number"))
