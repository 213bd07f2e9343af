"""The CPU cost of ``hard``'s line searches: fixed positions, fixed work.

The positions are every decision with two or more plays in twelve hands of
each variant, played by ``medium`` (deals 900-911). Each is searched by the
search ``hard`` runs there (``games.bots.hard.SEARCHES``) at the default
budget and a fixed machine speed, so the counted work is the same from run to
run and from machine to machine: the CPU time per decision measures what a
counted unit costs. A digest of the values shows whether a change of code kept
the search's results (same digest: same values on every position), as long as
no decision hits the wall-clock safety stop (``games.bots.hard.budget``), which
a heavily loaded machine can reach: ``--no-safety-stop`` turns it off.

Not measured: wall-clock time (the figure is this thread's CPU time,
``time.thread_time``); the rest of ``hard``'s decision (``view``, ``ranked_plays``
and the machine-speed measurement, which ``--speed`` replaces, are outside the
timed calls); positions that ``hard`` itself, people or more than two seats would
reach (the positions come from ``medium``'s play, hand 1 of each deal); strength
(no game is played).

Usage::

    .venv/bin/python bench/search_cost.py                  # 3 runs, speed 0.3
    .venv/bin/python bench/search_cost.py --runs 5 --speed 1.0 --only block
    .venv/bin/python bench/search_cost.py --runs 1 --no-safety-stop   # digests
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.hard import MAX_CANDIDATES, SEARCHES, budget
from games.bots.hard.machine import WORK_UNITS
from games.bots.medium import ranked_plays
from games.engine import (
    Action,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)

Position = tuple[dict[str, Any], list[Action]]


def positions(variant: str, games: int = 12) -> list[Position]:
    """Every decision with two or more plays in ``games`` hands played by medium."""
    out = []
    for g in range(games):
        s = new_match(options_for(variant, seats=2), 900 + g)
        while s.phase in ("play", "claim", "close"):
            seat = current_seat(s)
            assert seat is not None
            legal = legal_actions(s, seat)
            v = view(s, seat)
            ranked = ranked_plays(v, legal)
            if len(ranked) >= 2:
                out.append((v, ranked[:MAX_CANDIDATES]))
            s = apply(s, seat, ranked[0] if ranked else legal[0])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--speed", type=float, default=0.3, help="fixed machine speed")
    ap.add_argument("--budget-ms", type=float, default=150.0)
    ap.add_argument("--only", nargs="*", choices=sorted(WORK_UNITS), default=None)
    ap.add_argument(
        "--no-safety-stop",
        action="store_true",
        help="turn hard's wall-clock safety stop off (same digests under any load)",
    )
    args = ap.parse_args(argv)
    if args.no_safety_stop:
        budget.SAFETY = float("inf")
    print(f"speed {args.speed}, budget {args.budget_ms} ms, {args.runs} runs")
    print("| variant | positions | CPU ms per decision median | runs (s) | digest |")
    print("|---|---|---|---|---|")
    for variant in args.only or WORK_UNITS:
        search = SEARCHES[variant].run
        ps = positions(variant)
        times = []
        values: list[list[float]] = []
        for _ in range(max(1, args.runs)):
            c0 = time.thread_time()
            values = [
                search(v, cands, random.Random(i), args.budget_ms, args.speed)
                for i, (v, cands) in enumerate(ps)
            ]
            times.append(time.thread_time() - c0)
        digest = hashlib.sha256(repr(values).encode()).hexdigest()[:12]
        per = 1000 * statistics.median(times) / len(ps)
        runs = " ".join(f"{t:.2f}" for t in times)
        print(f"| {variant} | {len(ps)} | {per:.1f} | {runs} | {digest} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
