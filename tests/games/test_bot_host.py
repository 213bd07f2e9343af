"""The platform's hard bots run at the machine speed of the settings, or at the
one measured once per process ("auto")."""

from __future__ import annotations

from typing import Any

import pytest

from games import bot_host, engine
from games.models import Table
from games.services import timed_jobs


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    bot_host.machine_speed.cache_clear()
    yield
    bot_host.machine_speed.cache_clear()


def test_a_fixed_figure_is_used_as_is(settings, monkeypatch):  # type: ignore[no-untyped-def]
    settings.BOT_MACHINE_SPEED = 0.4

    def never() -> float:
        raise AssertionError("a fixed figure is not measured")

    monkeypatch.setattr(bot_host, "measure_speed", never)
    assert bot_host.machine_speed() == 0.4


def test_auto_measures_once_per_process(settings, monkeypatch):  # type: ignore[no-untyped-def]
    settings.BOT_MACHINE_SPEED = None
    runs: list[int] = []

    def measured() -> float:
        runs.append(1)
        return 0.37

    monkeypatch.setattr(bot_host, "measure_speed", measured)
    assert [bot_host.machine_speed() for _ in range(3)] == [0.37] * 3
    assert len(runs) == 1


@pytest.mark.parametrize(("level", "expected"), [("hard", 0.4), ("medium", 1.0)])
def test_bot_action_passes_the_machine_speed_to_hard(  # type: ignore[no-untyped-def]
    settings, monkeypatch, level, expected
):
    settings.BOT_MACHINE_SPEED = 0.4
    seen: dict[str, Any] = {}
    real = timed_jobs.bot_choose

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(timed_jobs, "bot_choose", spy)
    state = engine.new_match(engine.options_for("block", seats=2), 3)
    seat = engine.current_seat(state)
    assert seat is not None
    table = Table(seed=3, seq=1)
    a = timed_jobs.bot_action(table=table, state=state, position=seat, level=level)
    assert a in engine.legal_actions(state, seat)
    assert seen["machine_speed"] == expected
    # the same table, seq and speed give the same move (replayable)
    again = timed_jobs.bot_action(table=table, state=state, position=seat, level=level)
    assert again == a
