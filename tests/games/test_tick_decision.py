"""A computer player thinks outside any transaction; its decision is applied only
if the table still waits for the same job at the same seq."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games import engine
from games.models import Seat, Table, TableEvent
from games.services import (
    seat_presence,
    table_act,
    table_practice_create,
    table_tick,
    timed_jobs,
)
from tests.support.tables import table_state

pytestmark = pytest.mark.django_db


def bot_to_move(user: Any) -> Table:
    """A practice table against a medium bot whose move is due now."""
    table = table_practice_create(
        user=user,
        variant="block",
        options={},
        bot_levels=["medium"],
        bot_speed="instant",
    )
    state = table_state(table.pk)
    if engine.current_seat(state) == 0:
        table_act(
            table_id=table.pk,
            user=user,
            action=engine.action_to_dict(engine.legal_actions(state, 0)[0]),
            expected_seq=table.seq,
        )
        table.refresh_from_db()
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert table.timer == Table.Timer.BOT
    return table


def spy_on_choose(monkeypatch: Any, during: Any = None) -> list[int]:
    """Record the transaction depth at each decision, running ``during`` then."""
    depths: list[int] = []
    real = timed_jobs.bot_choose

    def spy(*args: Any, **kwargs: Any) -> Any:
        depths.append(len(connection.atomic_blocks))
        if during is not None:
            during()
        return real(*args, **kwargs)

    monkeypatch.setattr(timed_jobs, "bot_choose", spy)
    return depths


def test_the_bot_decides_outside_the_write_transaction(
    make_user, queued, pushes, monkeypatch
):
    table = bot_to_move(make_user())
    outside = len(connection.atomic_blocks)  # the test's own transaction
    depths = spy_on_choose(monkeypatch)
    assert table_tick(table_id=table.pk, seq=table.seq) is True
    assert depths == [outside]
    assert TableEvent.objects.filter(table=table).latest("seq").actor == "bot"


def test_a_decision_the_table_moved_past_is_dropped_and_the_job_requeued(
    make_user, queued, pushes, monkeypatch
):
    user = make_user()
    table = bot_to_move(user)
    seq = table.seq
    connected = Seat.objects.get(table=table, user=user).connected

    def the_player_reconnects() -> None:
        seat_presence(table_id=table.pk, user=user, connected=not connected)

    spy_on_choose(monkeypatch, during=the_player_reconnects)
    assert table_tick(table_id=table.pk, seq=seq) is False
    table.refresh_from_db()
    assert table.seq == seq + 1  # the presence change only: no move was applied
    assert not TableEvent.objects.filter(table=table, action__isnull=False).filter(
        seq__gt=seq
    )
    assert queued[-1] == (table.pk, seq + 1)
    # The job at the new seq decides afresh and plays.
    monkeypatch.undo()
    assert table_tick(table_id=table.pk, seq=seq + 1) is True
    assert TableEvent.objects.filter(table=table).latest("seq").actor == "bot"
