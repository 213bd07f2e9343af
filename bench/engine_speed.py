"""Engine speed: random complete hands per second, one core, median of runs.

Each hand is dealt by the engine (``new_match``) and played to its end by picking
uniformly among ``legal_actions`` (claims are claimed half the time, so claim
windows and Muggins windows are exercised), all through the public API.

``--versus`` runs the same workload side by side with the ``dominoes`` package
from PyPI (the bench-only extra: ``pip install -e ".[bench]"``): four seats in
partnerships, seven tiles each, the 6-6 opening, each hand played to its end by
uniform picks among the legal moves (``Game.new``, ``valid_moves``,
``make_move``), the two alternating run by run so that both see the same load;
it prints both medians and their ratio. The package deals with the global
``random`` (seeded here) and plays passes by itself; our engine's case is
``block-4p`` (Block, 4 seats in partnerships, the 002 deal of 7 each).

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
    .venv/bin/python bench/engine_speed.py --versus --runs 7
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


def play_package_hands(n_hands: int) -> float:
    """The ``dominoes`` package's random hands per second (``--versus``)."""
    import dominoes  # the bench-only extra

    random.seed(12345)
    choice = random.Random(12345).choice
    six = dominoes.Domino(6, 6)
    new = dominoes.Game.new
    start = time.perf_counter()
    for _ in range(n_hands):
        game = new(starting_domino=six)
        while game.result is None:
            game.make_move(*choice(game.valid_moves))
    return n_hands / (time.perf_counter() - start)


def versus(runs: int, n_hands: int) -> None:
    """Our engine's ``block-4p`` and the ``dominoes`` package, run by run."""
    try:
        import dominoes  # noqa: F401
    except ImportError:
        print('the dominoes package is missing: pip install -e ".[bench]"')
        raise SystemExit(2) from None
    variant, overrides = CASES["block-4p"]
    play_hands(variant, overrides, 200)  # warm-up
    play_package_hands(200)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        ours.append(play_hands(variant, overrides, n_hands))
        theirs.append(play_package_hands(n_hands))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"{'case':<22}{'median hands/s':>16}   runs")
    print(
        f"{'block-4p (engine)':<22}{a:>16,.0f}   " + " ".join(f"{r:,.0f}" for r in ours)
    )
    print(
        f"{'dominoes package':<22}{b:>16,.0f}   "
        + " ".join(f"{r:,.0f}" for r in theirs)
    )
    print(f"engine / package: {a / b:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--profile", default=None)
    parser.add_argument(
        "--versus",
        action="store_true",
        help="block-4p side by side with the dominoes package (the bench extra)",
    )
    args = parser.parse_args()
    if args.versus:
        versus(args.runs, args.hands)
        return
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
