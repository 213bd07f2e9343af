"""The machine speed: ``hard``'s counted work scales with it, it is measured
from a fixed workload, and a bad figure is refused."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.bots import HardBot, bot_for, choose, hard
from games.bots.hard import line_search, machine, model_search, playouts
from games.bots.hard.budget import Search
from games.engine import current_seat, legal_actions, new_match, options_for, view
from tests.support.positions import advance


def _position(variant: str, seed: int):  # type: ignore[no-untyped-def]
    """A position a few plays in where the seat to move has 2+ plays."""
    s = new_match(options_for(variant, seats=2), seed)
    for n in range(3, 12):
        s2 = advance(s, n, seed)
        seat = current_seat(s2)
        assert seat is not None
        legal = legal_actions(s2, seat)
        if sum(a.type == "play" for a in legal) >= 2:
            return view(s2, seat), legal
    raise AssertionError("no position with a choice")


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Count the calls of ``module.name`` (still calling it)."""
    calls = [0]
    real: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize(
    ("variant", "module", "name"),
    [
        ("all_fives", model_search, "deal_masks"),  # deals played out
        ("block", model_search, "deal_masks"),
        ("cross", playouts, "sample_state"),  # deals of the engine playouts
    ],
)
def test_the_work_scales_with_the_machine_speed(
    monkeypatch: pytest.MonkeyPatch, variant: str, module: Any, name: str
) -> None:
    v, legal = _position(variant, 5)
    calls = _count_calls(monkeypatch, module, name)
    deals = {}
    for speed in (1.0, 0.25):
        calls[0] = 0
        a = HardBot(budget_ms=160, machine_speed=speed).decide(
            v, legal, random.Random(3)
        )
        assert a in legal
        deals[speed] = calls[0]
    assert deals[1.0] >= 20
    assert 0.1 <= deals[0.25] / deals[1.0] <= 0.45


def test_the_line_search_node_budget_scales_with_the_machine_speed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v, legal = _position("draw", 6)
    cands = [a for a in legal if a.type == "play"]
    assert len(cands) >= 2
    nodes: dict[float, int] = {}
    real = line_search.SolverSearch

    for speed in (1.0, 0.25):
        made: list[Any] = []

        def search(*args: Any, _made: list[Any] = made, **kw: Any) -> Any:
            s = real(*args, **kw)
            _made.append(s)
            return s

        monkeypatch.setattr(line_search, "SolverSearch", search)
        line_search.line_search(v, cands, random.Random(2), 40, speed)
        nodes[speed] = sum(s.nodes for s in made)
    budget = 40 * line_search.NODES_PER_MS_STOCK  # nodes plus the deals' weighing
    assert 0.5 * budget <= nodes[1.0] <= 1.2 * budget
    assert nodes[0.25] <= 0.4 * nodes[1.0]


def test_the_same_machine_speed_gives_the_same_move() -> None:
    for variant, seed in (("block", 1), ("all_fives", 2), ("cross", 3)):
        v, legal = _position(variant, seed)
        picks = {
            choose(
                "hard", v, legal, random.Random(seed), budget_ms=20, machine_speed=0.5
            )
            for _ in range(2)
        }
        assert len(picks) == 1 and picks <= set(legal)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf])
def test_a_machine_speed_that_is_not_a_positive_number_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="machine_speed"):
        bot_for("hard", machine_speed=bad)


def test_bot_for_keeps_budget_and_machine_speed() -> None:
    b = bot_for("hard", machine_speed=0.5)
    assert isinstance(b, HardBot)
    assert (b.budget_ms, b.machine_speed) == (hard.DEFAULT_BUDGET_MS, 0.5)
    assert bot_for("hard") is bot_for("hard", budget_ms=hard.DEFAULT_BUDGET_MS)


def _clock(monkeypatch: pytest.MonkeyPatch, per_run_ms: list[float]) -> None:
    """A fake thread clock: each workload run takes the next figure."""
    runs = iter(per_run_ms)
    now = [0.0]
    monkeypatch.setattr(machine.time, "thread_time", lambda: now[0])

    def workload() -> None:
        now[0] += next(runs) / 1000.0

    monkeypatch.setattr(machine, "workload", workload)


def test_measure_speed_is_the_reference_over_the_median_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ref = machine.REFERENCE_MS
    # the first (untimed) run and three timed ones: median 2x the reference
    _clock(monkeypatch, [99 * ref, ref, 2 * ref, 5 * ref])
    assert machine.measure_speed(3) == 0.5


def test_measure_speed_is_kept_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    _clock(monkeypatch, [1.0] + [1000 * machine.REFERENCE_MS] * 3)
    assert machine.measure_speed(3) == machine.MIN_SPEED
    _clock(monkeypatch, [1.0] + [machine.REFERENCE_MS / 1000] * 3)
    assert machine.measure_speed(3) == machine.MAX_SPEED


def test_measure_speed_on_this_machine() -> None:
    """The real workload: a figure in bounds, rounded to two decimals."""
    s = machine.measure_speed(1)
    assert machine.MIN_SPEED <= s <= machine.MAX_SPEED
    assert s == round(s, 2)


def _record_workload(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, float]]:
    """Run the workload with its searches replaced by recorders: (variant,
    search, budget ms) per call."""
    calls: list[tuple[str, str, float]] = []

    def recorder(name: str) -> Callable[..., list[float]]:
        def search(
            v: dict[str, Any], cands: list[Any], rng: Any, ms: float, speed: float
        ) -> list[float]:
            calls.append((v["public_state"]["options"]["variant"], name, ms))
            return [0.0] * len(cands)

        return search

    recorded = {
        variant: Search(recorder(s.run.__name__), s.units_per_ms)
        for variant, s in hard.SEARCHES.items()
    }
    monkeypatch.setattr(machine, "SEARCHES", recorded)
    machine.workload()
    return calls


def test_the_workload_runs_hards_own_search_for_fixed_units(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rates = {
        "block": lambda: model_search.NODES_PER_MS_BLOCK,
        "all_fives": lambda: model_search.NODES_PER_MS_SCORING,
        "draw": lambda: line_search.NODES_PER_MS_STOCK,
    }
    calls = _record_workload(monkeypatch)
    assert {v for v, _, _ in calls} == set(machine.WORK_UNITS) == set(rates)
    for variant, name, ms in calls:
        # the search ``hard`` dispatches to in that variant
        assert name == ("line_search" if variant == "draw" else "model_search")
        assert ms * rates[variant]() == pytest.approx(machine.WORK_UNITS[variant])
    # a faster rate buys hard more work, not the workload
    monkeypatch.setattr(model_search, "NODES_PER_MS_BLOCK", 900.0)
    monkeypatch.setattr(line_search, "NODES_PER_MS_STOCK", 500.0)
    again = _record_workload(monkeypatch)
    for (variant, _, ms), (_, _, ms2) in zip(calls, again, strict=True):
        factor = 2.0 if variant in ("block", "draw") else 1.0
        assert ms2 == pytest.approx(ms / factor)
