"""Engine speed: random complete hands per second, one core, median of runs.

Each hand is dealt by the engine (``new_match``) and played to its end by picking
uniformly among ``legal_actions`` (claims are claimed half the time, so claim
windows and Muggins windows are exercised), all through the public API.

Not measured: what a table adds around the engine's transitions (``view``, the
bots' decisions, for which a uniform random pick stands in, serialising states,
the database, frames); hands after the first (each match stops at its first hand's
end: no ``next_hand``, no match's end); the mix of actions real players choose.
The rate is wall clock (``time.perf_counter``) in one process, not CPU time: other
processes on the machine lower it.

Usage::

    .venv/bin/python bench/engine_speed.py            # every variant
    .venv/bin/python bench/engine_speed.py --only block-2 block-4p --runs 7
    .venv/bin/python bench/engine_speed.py --profile block-2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
)

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "block-2": ("block", {"set_max": 6, "seats": 2}),
    "block-4p": (
        "block",
        {"set_max": 6, "seats": 4, "partnership": True, "deal": "002"},
    ),
    "block-4-d9": ("block", {"set_max": 9, "seats": 4}),
    "draw-2": ("draw", {"seats": 2}),
    "draw-4": ("draw", {"seats": 4}),
    "cross-4": ("cross", {"seats": 4}),
    "grand_cross-4-d9": ("grand_cross", {"seats": 4, "set_max": 9}),
    "all_fives-2": ("all_fives", {"seats": 2}),
    "fives_and_threes-4p": ("fives_and_threes", {"seats": 4, "partnership": True}),
    "fives-3": ("fives", {"seats": 3}),
    "catalan-4": ("catalan", {"seats": 4}),
    "catalan-2-5": ("catalan", {"seats": 2, "tiles_per_seat": 5}),
    "spider-2": ("spider", {"seats": 2}),
}


def play_hands(variant: str, overrides: dict[str, Any], n_hands: int) -> float:
    """Play ``n_hands`` random hands; return hands per second."""
    opts = options_for(variant, **overrides)
    rng = random.Random(12345)
    choice = rng.choice
    start = time.perf_counter()
    for i in range(n_hands):
        state = new_match(opts, i)
        phase = state.phase
        while phase == "play" or phase == "claim" or phase == "close":
            seat = state.turn
            acts = legal_actions(state, seat)
            state = apply(state, seat, choice(acts))
            phase = state.phase
        assert current_seat(state) is None
    return n_hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--profile", default=None)
    args = parser.parse_args()
    if args.profile:
        import cProfile
        import pstats

        variant, overrides = CASES[args.profile]
        cProfile.runctx(
            "play_hands(variant, overrides, args.hands)",
            globals(),
            {"variant": variant, "overrides": overrides, "args": args},
            "/tmp/engine.prof",
        )
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(15)
        return
    names = args.only or list(CASES)
    print(f"{'case':<22}{'median hands/s':>16}   runs")
    for name in names:
        variant, overrides = CASES[name]
        play_hands(variant, overrides, 200)  # warm-up
        rates = [play_hands(variant, overrides, args.hands) for _ in range(args.runs)]
        runs = " ".join(f"{r:,.0f}" for r in rates)
        print(f"{name:<22}{statistics.median(rates):>16,.0f}   {runs}", flush=True)


if __name__ == "__main__":
    main()
