"""How fast this machine runs ``hard``'s search, against the calibration machine.

``hard`` counts its work instead of timing it (``games.bots.hard``): its node,
step and deal allowances are ``budget_ms`` times rates calibrated on one
machine, the *calibration machine*, so that a decision's CPU time stays under
its budget there. Machines differ by three times and more (bench/RESULTS.md:
``bench/engine_speed.py`` block-2 from ~4,400 to ~14,700 hands/s), so a host
passes ``machine_speed`` and the counted work is multiplied by it. The same
view, legal actions, rng seed *and machine speed* give the same move. A host
that wants moves identical across machines passes a fixed figure (1.0 is the
calibration machine); one that wants the budget kept measures it once with
``measure_speed`` and keeps it for the life of the process (the platform's
``BOT_MACHINE_SPEED=auto``).

``measure_speed`` times a fixed piece of ``hard``'s own work: the search
``hard`` runs in block, All Fives and draw (``model_search``, ``model_search``,
``line_search``), each on one fixed position for a fixed number of counted
units (``WORK_UNITS``; the units, not the budget, are fixed, so a change of a
search's rate changes ``hard``'s work and not this measure). It is timed in
the calling thread's CPU time, so other threads and processes do not inflate
it. It returns ``REFERENCE_MS`` divided by the median of ``repeats`` timed runs
(after one untimed run that fills the caches), rounded to two decimals and kept
within ``[MIN_SPEED, MAX_SPEED]``.

``REFERENCE_MS`` is the workload's CPU time on the calibration machine, the one
on which ``hard``'s block decisions (the dearest of the three) have a CPU p95
of ~120 ms at speed 1. That machine is not at hand; the figure is derived on
slower ones. Fourth session: ``hard`` played block at a fixed speed of 0.25
with a CPU p95 of 112 ms, so that machine ran at ~0.27 of the calibration
machine's speed, and the workload of then took ~70 ms there: 0.27 x 70 = 19.
Sixth session: the workload became the searches ``hard`` runs (block's had
been ``line_search``, which ``hard`` no longer uses there; that let a machine
read ~40% too fast for block: a p95 of 199 ms at ``auto``), and the searches
became cheaper per unit (All Fives ~30%, block ~10%, draw ~6%). Block at a
fixed speed of 0.3 had a CPU p95 of 118 ms under the tournament's load, and 76
ms at ``auto``, where the new workload read 0.19 with the old figure. Block's
CPU p95 per unit of speed held at 380-400 ms over runs at 0.19, 0.3 and 0.42,
while the workload's readings of the same machine ranged over 62-100 ms. So
``REFERENCE_MS`` = 22: the fastest reading seen (62 ms) gives a speed of 0.35
and a block p95 of ~140 ms, a typical one (~85 ms) 0.26 and ~100 ms (at 26, a
reading of 62 ms gave a p95 of 161 ms; bench/RESULTS.md, sixth session). Seventh
session: the scoring playouts became ~27% cheaper per unit (look-up tables)
and ``WORK_UNITS`` rose by the workload's own speed-up (above), so the reading
of a machine did not move; the two-seat scoring rate was doubled instead
(``model_search.nodes_per_ms``). On
this kind of shared virtual machine the figure moves by +-25% from one
measurement to the next; an operator who wants a steady figure sets
``BOT_MACHINE_SPEED``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from games.bots import line_search as line_search_module
from games.bots import model_search as model_search_module
from games.bots.line_search import line_search
from games.bots.medium import ranked_plays
from games.bots.model_search import model_search
from games.engine import (
    Action,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import rules_for

REFERENCE_MS = 22.0
Search = Callable[[dict[str, Any], list[Action], random.Random, float], list[float]]
MIN_SPEED = 0.1
MAX_SPEED = 4.0
# The counted units of each variant's search in the workload: what 20 ms bought
# at machine speed 1 when the workload was set (the rates of the fifth session),
# raised where a search later became cheaper per unit so that the workload
# still takes as long (seventh session: All Fives' 5,000 and block's 9,000 by
# their speed-ups on these positions, x1.10 and x1.07).
WORK_UNITS = {"block": 9_600, "all_fives": 5_500, "draw": 5_000}


@cache
def _positions() -> tuple[tuple[dict[str, Any], tuple[Action, ...], str], ...]:
    """Fixed mid-hand positions with several candidate plays, one per variant of
    ``WORK_UNITS``."""
    out = []
    for variant in WORK_UNITS:
        state = new_match(options_for(variant, seats=2), 7)
        plays = 0
        while True:
            seat = current_seat(state)
            assert seat is not None
            legal = legal_actions(state, seat)
            v = view(state, seat)
            ranked = ranked_plays(v, legal)
            if plays >= 4 and len(ranked) >= 3:
                out.append((v, tuple(ranked[:4]), variant))
                break
            state = apply(state, seat, ranked[0] if ranked else legal[0])
            plays += 1
    return tuple(out)


def search_for(variant: str) -> tuple[Search, float]:
    """The search ``hard`` runs in ``variant`` (``hard.HardBot.decide``) and its
    counted units per ms of budget at machine speed 1."""
    if variant == "draw":
        return line_search, line_search_module.NODES_PER_MS_STOCK
    rules = rules_for(options_for(variant, seats=2))
    return model_search, model_search_module.nodes_per_ms(rules)


def workload() -> None:
    """The counted work ``measure_speed`` times: ``WORK_UNITS`` of each
    variant's search. The units are fixed, not the budget, so a change of a
    search's rate changes ``hard``'s work and not this measure of the machine."""
    for v, cands, variant in _positions():
        search, rate = search_for(variant)
        search(v, list(cands), random.Random(1), WORK_UNITS[variant] / rate)


def measure_speed(repeats: int = 9) -> float:
    """This machine's speed against the calibration machine (see above)."""
    workload()  # fills the caches; not timed
    runs = []
    for _ in range(max(1, repeats)):
        c0 = time.thread_time()
        workload()
        runs.append((time.thread_time() - c0) * 1000.0)
    ms = max(statistics.median(runs), 1e-3)
    return round(min(MAX_SPEED, max(MIN_SPEED, REFERENCE_MS / ms)), 2)


__all__ = [
    "MAX_SPEED",
    "MIN_SPEED",
    "REFERENCE_MS",
    "measure_speed",
    "search_for",
    "workload",
]
