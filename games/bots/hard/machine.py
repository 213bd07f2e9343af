"""How fast this machine runs ``hard``'s search, against the calibration machine.

``hard`` counts its work instead of timing it (``budget``): its allowances are
``budget_ms`` times rates calibrated on one machine, the *calibration machine*,
so that a decision's CPU time stays under its budget there. Machines differ by
three times and more (``bench/engine_speed.py``), so a host passes
``machine_speed`` and the counted work is multiplied by it. A host that wants
moves identical across machines passes a fixed figure (1.0 is the calibration
machine); one that wants the budget kept measures it once with
``measure_speed`` and keeps it for the life of the process (the platform's
``BOT_MACHINE_SPEED=auto``, ``games.bot_host``).

``measure_speed`` times a fixed piece of ``hard``'s own work: the search
``hard`` runs in block, All Fives and draw (``SEARCHES``), each on one fixed
position for a fixed number of counted units (``WORK_UNITS``: the units, not
the budget, are fixed, so a change of a search's rate changes ``hard``'s work
and not this measure). It is timed in the calling thread's CPU time, so other
threads and processes do not inflate it. It returns ``REFERENCE_MS`` divided
by the median of ``repeats`` timed runs (after one untimed run that fills the
caches), rounded to two decimals and kept within ``[MIN_SPEED, MAX_SPEED]``.

``REFERENCE_MS`` is the workload's CPU time on the calibration machine, the one
on which ``hard``'s block decisions (the dearest) have a CPU p95 of about
120 ms at speed 1; it is derived from the block CPU p95 per unit of speed
measured at fixed speeds (``bench/bot_tournament.py block --pairs hard:medium
--machine-speed 0.3``) against the workload's readings of the same machine.
``WORK_UNITS`` were raised by the searches' own speed-ups on these positions
(``bench/search_cost.py``), so that the reading of a machine stays put. On a
shared virtual machine the figure moves by about 25% from one measurement to
the next; an operator who wants a steady figure sets ``BOT_MACHINE_SPEED``.
"""

from __future__ import annotations

import random
import statistics
import time
from functools import cache
from typing import Any

import games.engine as engine
from games.bots.board import rules_of
from games.bots.hard import SEARCHES
from games.bots.medium import ranked_plays
from games.engine import Action

REFERENCE_MS = 22.0
MIN_SPEED = 0.1
MAX_SPEED = 4.0
# The counted units of each variant's search in the workload (see above).
WORK_UNITS = {"block": 9_600, "all_fives": 5_500, "draw": 5_000}


@cache
def _positions() -> tuple[tuple[dict[str, Any], tuple[Action, ...], str], ...]:
    """Fixed mid-hand positions with several candidate plays, one per variant of
    ``WORK_UNITS``."""
    out = []
    for variant in WORK_UNITS:
        state = engine.new_match(engine.options_for(variant, seats=2), 7)
        plays = 0
        while True:
            seat = engine.current_seat(state)
            assert seat is not None
            legal = engine.legal_actions(state, seat)
            v = engine.view(state, seat)
            ranked = ranked_plays(v, legal)
            if plays >= 4 and len(ranked) >= 3:
                out.append((v, tuple(ranked[:4]), variant))
                break
            state = engine.apply(state, seat, ranked[0] if ranked else legal[0])
            plays += 1
    return tuple(out)


def workload() -> None:
    """The counted work ``measure_speed`` times: ``WORK_UNITS`` of each
    variant's search. The units are fixed, not the budget, so a change of a
    search's rate changes ``hard``'s work and not this measure of the machine."""
    for v, cands, variant in _positions():
        search = SEARCHES[variant]
        ms = WORK_UNITS[variant] / search.units_per_ms(rules_of(v))
        search.run(v, list(cands), random.Random(1), ms, 1.0)


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
    "WORK_UNITS",
    "measure_speed",
    "workload",
]
