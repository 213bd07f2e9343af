"""The CPU cost of a hand review, and of the double-dummy solve of a whole hand.

Usage::

    .venv/bin/python bench/review_cost.py             # 12 hands per configuration
    .venv/bin/python bench/review_cost.py --quick     # 3 hands per configuration
    .venv/bin/python bench/review_cost.py --hands 30 --only block --samples 24

The configurations: double-6 Block, Draw and All Fives with 2 seats, 4 seats in
partnerships and 4 seats each for itself. For each, hand 1 of deals 0, 1, ...
is played by ``medium`` at every seat, then, one hand at a time:

* ``review``: the whole hand's review as ``games.review.hand.hand_review``
  runs it, its three parts timed one after the other: the single-dummy review
  of every decision of every seat (``single``; ``--samples`` and
  ``--max-nodes`` change its budget), the face-up line and the luck, at the
  budgets of ``games.review.hand``; the CPU time of the whole per hand, and of
  ``single`` alone;
* ``solve``: the double-dummy solve of the hand from its first play
  (``games.solver.solve`` at the default allowance): CPU time per solve,
  its nodes, and whether it was exact.

Printed per configuration: p50 and p95 of each time (``time.process_time``,
one core), decisions reviewed per hand, the share of decisions valued exactly
to the end of the hand, the median effective size of the weighed pool of deals
and of the distinct deals solved per decision (``games.review.single``), and
the first-play solves' nodes and how many were exact.

What it does not measure: wall-clock time under a loaded worker or beside
other processes (the CPU time of one process is what is counted; a shared
machine still slows it through caches), the queue's delay, reading a table's
log from the database and replaying it (hands are replayed in memory here),
storing a review, memory, the interpreter's start-up, hands played by people
or by ``hard`` (``medium`` plays every hand here, so the decisions are
``medium``'s), other variants, double-9/12 sets and 3- or 5-seat tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import bot_for
from games.engine import (
    Action,
    Options,
    State,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.review.faceup import face_up_line
from games.review.hand import FACE_UP_NODES, LUCK_NODES
from games.review.luck import deal_luck
from games.review.single import DEFAULT_MAX_NODES, DEFAULT_SAMPLES, review_hand
from games.solver import solve

CONFIGS: list[tuple[str, str, dict[str, object]]] = [
    ("block 2", "block", {"seats": 2}),
    ("block 4p", "block", {"seats": 4, "partnership": True}),
    ("block 4", "block", {"seats": 4}),
    ("draw 2", "draw", {"seats": 2}),
    ("draw 4p", "draw", {"seats": 4, "partnership": True}),
    ("draw 4", "draw", {"seats": 4}),
    ("all_fives 2", "all_fives", {"seats": 2}),
    ("all_fives 4p", "all_fives", {"seats": 4, "partnership": True}),
    ("all_fives 4", "all_fives", {"seats": 4}),
]

Steps = list[tuple[State, int, Action]]


def medium_hand(o: Options, seed: int) -> Steps:
    """Hand 1 of deal ``seed`` played by ``medium`` at every seat."""
    bot = bot_for("medium")
    s = new_match(o, seed)
    rng = random.Random(seed)
    steps: Steps = []
    while s.phase in ("play", "claim", "close"):
        seat = current_seat(s)
        assert seat is not None
        a = bot.choose(view(s, seat), legal_actions(s, seat), rng)
        assert a is not None
        steps.append((s, seat, a))
        s = apply(s, seat, a)
    return steps


def pct(xs: list[float], q: int) -> float:
    """The ``q``-th percentile (inclusive method; the value itself for one)."""
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=100, method="inclusive")[q - 1]


def run(label: str, o: Options, hands: int, samples: int, max_nodes: int) -> None:
    review_s: list[float] = []
    single_s: list[float] = []
    solve_s: list[float] = []
    nodes: list[float] = []
    effective: list[float] = []
    distinct: list[float] = []
    decisions = exact_decisions = exact_solves = 0
    for seed in range(hands):
        steps = medium_hand(o, seed)
        t0 = time.process_time()
        reviewed = review_hand(steps, seed=seed, samples=samples, max_nodes=max_nodes)
        t1 = time.process_time()
        face_up_line(steps, max_nodes=FACE_UP_NODES)
        deal_luck(steps[0][0], max_nodes=LUCK_NODES)
        t2 = time.process_time()
        single_s.append(t1 - t0)
        review_s.append(t2 - t0)
        decisions += len(reviewed)
        exact_decisions += sum(1 for _, r in reviewed if r.exact)
        effective += [r.effective for _, r in reviewed]
        distinct += [float(r.distinct) for _, r in reviewed]
        t0 = time.process_time()
        sol = solve(steps[0][0])
        solve_s.append(time.process_time() - t0)
        nodes.append(float(sol.nodes))
        exact_solves += sol.exact
    print(
        f"{label:<13} review p50 {pct(review_s, 50):5.2f} p95 {pct(review_s, 95):5.2f}"
        f" (single p50 {pct(single_s, 50):5.2f} p95 {pct(single_s, 95):5.2f})"
        f" dec/hand {decisions / hands:4.1f}"
        f" exact {exact_decisions / max(1, decisions):4.0%}"
        f" eff {statistics.median(effective or [0.0]):5.1f}"
        f" distinct {statistics.median(distinct or [0.0]):4.1f}"
        f" | solve p50 {pct(solve_s, 50):5.3f} p95 {pct(solve_s, 95):5.3f}"
        f" nodes p50 {int(pct(nodes, 50)):>6} exact {exact_solves}/{hands}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--quick", action="store_true", help="3 hands per configuration")
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    ap.add_argument("--only", help="configurations whose label starts with this")
    args = ap.parse_args()
    hands = 3 if args.quick else args.hands
    print(
        f"{hands} hands per configuration, {args.samples} deals per decision,"
        f" {args.max_nodes} nodes per deal; CPU seconds of one process"
        " (review: the whole hand; single: its decisions alone)"
    )
    for label, variant, kw in CONFIGS:
        if args.only and not label.startswith(args.only):
            continue
        run(label, options_for(variant, **kw), hands, args.samples, args.max_nodes)


if __name__ == "__main__":
    main()
