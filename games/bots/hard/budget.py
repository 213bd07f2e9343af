"""What a thinking budget buys ``hard``: counted work, and a safety stop.

Every search counts its work (search nodes, playout steps, weighed deals) and
stops after ``budget_ms * machine_speed * units_per_ms(rules)`` units, so the
same view, legal actions, rng seed and machine speed give the same move on any
machine. The rates are calibrated so that a decision's CPU-time p95 stays under
its budget on the calibration machine (``bench/bot_tournament.py VARIANT
--pairs hard:medium``); ``machine_speed`` scales them to the host
(``games.bots.hard.machine``). The wall clock is only a safety stop for a
machine far slower than its ``machine_speed`` says; when it is hit, the move
can depend on timing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from games.engine import Action
from games.engine.options import Rules

DEFAULT_BUDGET_MS = 150.0
SAFETY = 4.0
SAFETY_SLACK_MS = 250.0

View = dict[str, Any]  # ``games.engine.view(state, seat)``
# (view, candidates, rng, budget_ms, machine_speed) -> a value per candidate
SearchFn = Callable[[View, list[Action], random.Random, float, float], list[float]]


class Search(NamedTuple):
    """One of ``hard``'s searches: ``run`` values the candidates, and
    ``units_per_ms`` is the counted work one ms of budget buys under some
    rules at machine speed 1 (read when called, so a rate has one home)."""

    run: SearchFn
    units_per_ms: Callable[[Rules], float]


def safety_deadline(budget_ms: float) -> float:
    """The ``perf_counter`` time past which a search stops whatever work it has
    left: ``SAFETY`` times its budget plus ``SAFETY_SLACK_MS``."""
    return time.perf_counter() + (SAFETY * budget_ms + SAFETY_SLACK_MS) / 1e3
