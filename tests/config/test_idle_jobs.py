"""Periodic jobs that find no work only read: no write transaction, no write.

On SQLite (the embedded default) a write transaction takes the whole database, and
these jobs run every few seconds whether anyone plays or not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.tasks import (
    clock_sweep_task,
    finish_sweep_task,
    practice_expire_task,
    sweep_overdue_task,
)
from matchmaking.pools.tasks import waves_task
from matchmaking.stakes.tasks import stake_sweep_task
from tournaments.swiss.tasks import swiss_sweep_task

JOBS: dict[str, Callable[[], Any]] = {
    "matchmaking.waves": waves_task,
    "games.sweep_overdue": sweep_overdue_task,
    "games.clock_sweep": clock_sweep_task,
    "games.finish_sweep": finish_sweep_task,
    "games.practice_expire": practice_expire_task,
    "matchmaking.stake_sweep": stake_sweep_task,
    "tournaments.swiss_sweep": swiss_sweep_task,
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", sorted(JOBS))
def test_a_periodic_job_with_no_work_opens_no_transaction(name):
    seen: list[tuple[bool, str]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append((connection.in_atomic_block, sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        JOBS[name]()
    assert seen, "the job reads to find its work"
    assert [sql for in_atomic, sql in seen if in_atomic] == []
    assert [
        sql for _, sql in seen if not sql.lstrip().upper().startswith("SELECT")
    ] == []
