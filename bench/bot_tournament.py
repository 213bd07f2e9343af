"""Bot strength and cost: level against level, mirrored deals, in parallel.

Usage::

    .venv/bin/python bench/bot_tournament.py VARIANT --hands N [--pairs hard:medium]
        [--seats 2] [--set 6] [--partnership] [--budget-ms 150] [--workers 2]
        [--machine-speed auto] [--first-seed 0] [--no-safety-stop]
    .venv/bin/python bench/bot_tournament.py --versus-package --hands N

Each deal (hand 1 of ``new_match(options, seed)``) is played twice with the
levels' seats swapped, so both levels hold the same tiles once: N hands per
pairing are N/2 deals. One hand per deal; the match target is irrelevant.

A hand is won by the side that scores more in it in the scoring variants (All
Fives, Fives and Threes, Fives: claims, Muggins and the hand bonus), otherwise by
the hand's winner (out, or lowest in a block; Spider: the seat not charged).
Ties count half. Printed per pairing: the first level's hand win rate with a 95%
normal interval, points per hand of each level (Spider: penalty points, lower is
better), decision time p50/p95 of each level over decisions with more than one
legal action (wall clock, ``time.perf_counter``, and CPU time of the deciding
process, ``time.process_time``, which other jobs on the machine do not inflate),
and at the end the peak memory (ru_maxrss) of this process and of
its largest worker.

``hard``'s counted work is ``--budget-ms`` times its calibrated rates times the
machine speed (``games.bots.hard.machine``): ``auto`` (the default) measures this
machine once before the games, as the platform does, and prints the figure; a
number fixes it (1.0: the calibration machine's work, whatever this machine's
speed, for strength figures that do not depend on the machine).
``--no-safety-stop`` turns off the wall-clock stop a decision takes on a
machine far slower than its speed says (``games.bots.hard.budget``): with a
fixed speed the decisions are then the same under any load, to compare two
versions of the code.

Not measured:

* the platform around a decision: ``view`` and ``legal_actions`` run outside the
  timed call, and no worker, database or frame carries the move;
* decisions with a single legal action (not timed), and whole matches: one hand
  per deal, so no later hands and no match's end;
* play against people: every seat is one of the two levels;
* a quiet core: the ``--workers`` processes share the machine with each other and
  with anything else running, which inflates the wall-clock times (not the CPU
  times); memory is each process's peak RSS, not what a decision needs.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import LEVELS, Bot, bot_for
from games.bots.hard import budget
from games.bots.hard.machine import measure_speed
from games.engine import (
    Options,
    State,
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import rules_for

J = TypeVar("J")

# The ``dominoes`` package's player (``bench/package_player.py``), a name for
# ``--pairs`` beside the levels; ``--versus-package`` plays it in its own game.
PACKAGE = "package"


@dataclass
class Tally:
    """Results of some hands of one pairing (level ``a`` against ``b``)."""

    a: str
    b: str
    hands: int = 0
    wins: float = 0.0  # a's wins, ties counting half
    ties: int = 0
    points: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        self.wins += other.wins
        self.ties += other.ties
        for k, v in other.points.items():
            self.points[k] = self.points.get(k, 0) + v
        for k, t in other.times.items():
            self.times.setdefault(k, []).extend(t)
        for k, t in other.cpu.items():
            self.cpu.setdefault(k, []).extend(t)


@dataclass(frozen=True)
class Job:
    options: Options
    a: str
    b: str
    seeds: tuple[int, ...]
    budget_ms: float
    machine_speed: float = 1.0


def _extra(levels: tuple[str, ...]) -> dict[str, Bot]:
    """The bots named in ``levels`` that are not levels (``package``)."""
    if PACKAGE not in levels:
        return {}
    from package_player import PackagePlayer

    return {PACKAGE: PackagePlayer()}


def play_hand(
    options: Options,
    seed: int,
    seats: list[str],
    budget_ms: float,
    tally: Tally,
    machine_speed: float = 1.0,
    before: Callable[[State], None] | None = None,
    extra: Mapping[str, Bot] | None = None,
) -> None:
    """Play hand 1 of the deal ``seed`` with ``seats[i]``'s level in seat i
    (``before``: called with the state before every decision; ``extra``: bots
    by name that are not levels; both for diagnostics)."""
    r = rules_for(options)
    bots = [
        (extra or {}).get(lv)
        or bot_for(lv, budget_ms=budget_ms, machine_speed=machine_speed)
        for lv in seats
    ]
    s = new_match(options, seed)
    start = s.scores
    seq = 0
    while s.phase in ("play", "claim", "close"):
        turn = current_seat(s)
        order = [x for x in range(r.seats) if x != turn] + [turn]
        for seat in order:
            assert seat is not None
            legal = legal_actions(s, seat)
            if not legal:
                continue
            v = view(s, seat)
            if before is not None:
                before(s)
            rng = random.Random(f"{seed}:{seats[0]}:{seq}")
            seq += 1
            t0 = time.perf_counter()
            c0 = time.process_time()
            a = bots[seat].choose(v, legal, rng)
            dc = time.process_time() - c0
            dt = time.perf_counter() - t0
            if len(legal) > 1:
                tally.times.setdefault(seats[seat], []).append(dt)
                tally.cpu.setdefault(seats[seat], []).append(dc)
            if a is None:
                continue
            if a not in legal:
                raise AssertionError(f"{seats[seat]} chose illegal {a}")
            s = apply(s, seat, a)
            break
    gains = [x - y for x, y in zip(s.scores, start, strict=True)]
    side_a = {r.side_of[i] for i, lv in enumerate(seats) if lv == tally.a}
    side_b = {r.side_of[i] for i, lv in enumerate(seats) if lv == tally.b}
    pa = sum(gains[i] for i in side_a)
    pb = sum(gains[i] for i in side_b)
    tally.points[tally.a] = tally.points.get(tally.a, 0) + pa
    tally.points[tally.b] = tally.points.get(tally.b, 0) + pb
    tally.hands += 1
    if r.end_scoring:
        win = 1.0 if pa > pb else 0.0 if pa < pb else 0.5
    else:
        w = s.last_winner if s.phase == "hand_over" or s.hand_result else -1
        win = 0.5 if w < 0 else (1.0 if r.side_of[w] in side_a else 0.0)
    if win == 0.5:
        tally.ties += 1
    tally.wins += win


def run_job(job: Job) -> tuple[str, str, Tally, int]:
    """Play every deal of a batch twice (seats swapped)."""
    tally = Tally(job.a, job.b)
    n = job.options.seats
    extra = _extra((job.a, job.b))
    for seed in job.seeds:
        first = [job.a if i % 2 == 0 else job.b for i in range(n)]
        second = [job.b if i % 2 == 0 else job.a for i in range(n)]
        for seats in (first, second):
            play_hand(
                job.options,
                seed,
                seats,
                job.budget_ms,
                tally,
                job.machine_speed,
                extra=extra,
            )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return job.a, job.b, tally, rss


def seed_batches(first: int, deals: int, size: int) -> list[tuple[int, ...]]:
    """The deals ``first`` .. ``first + deals - 1`` in batches of ``size``."""
    end = first + deals
    return [tuple(range(lo, min(end, lo + size))) for lo in range(first, end, size)]


def pooled(
    fn: Callable[[J], Tally], batches: list[J], workers: int, total: Tally
) -> Tally:
    """``total`` with ``fn``'s tally of every batch merged in (``workers``
    processes); for the diagnostics, whose batches return a bare ``Tally``."""
    with Pool(workers) as pool:
        for tally in pool.imap_unordered(fn, batches):
            total.merge(tally)
    return total


def win_rate(t: Tally) -> tuple[float, float]:
    """``a``'s hand win rate and the half-width of its 95% normal interval."""
    if not t.hands:
        return 0.0, 0.0
    p = t.wins / t.hands
    return p, 1.96 * math.sqrt(p * (1 - p) / t.hands)


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000.0


def summary(t: Tally, spider: bool) -> str:
    p, half = win_rate(t)
    pa = t.points.get(t.a, 0) / max(1, t.hands)
    pb = t.points.get(t.b, 0) / max(1, t.hands)
    ratio = (pa / pb - 1) * 100 if pb else float("nan")
    ta, tb = t.times.get(t.a, []), t.times.get(t.b, [])
    ca, cb = t.cpu.get(t.a, []), t.cpu.get(t.b, [])
    unit = "penalty/hand" if spider else "pts/hand"
    return (
        f"| {t.a} vs {t.b} | {t.hands} | {100 * p:.1f}% ± {100 * half:.1f} "
        f"| {t.ties} | {pa:.2f} vs {pb:.2f} {unit} ({ratio:+.0f}%) "
        f"| {pct(ta, 0.5):.1f} / {pct(ta, 0.95):.1f} "
        f"| {pct(ca, 0.5):.1f} / {pct(ca, 0.95):.1f} "
        f"| {pct(tb, 0.5):.1f} / {pct(tb, 0.95):.1f} "
        f"| {pct(cb, 0.5):.1f} / {pct(cb, 0.95):.1f} |"
    )


def jobs(
    options: Options,
    pairs: list[tuple[str, str]],
    deals: int,
    batch: int,
    budget: float,
    machine_speed: float,
    first_seed: int = 0,
) -> Iterator[Job]:
    for a, b in pairs:
        for seeds in seed_batches(first_seed, deals, batch):
            yield Job(options, a, b, seeds, budget, machine_speed)


def machine_speed_arg(text: str) -> float | None:
    """``--machine-speed``: ``auto`` (``None``: measure) or a positive number."""
    if text == "auto":
        return None
    try:
        x = float(text)
    except ValueError:
        x = -1.0
    if not 0 < x < float("inf"):
        raise argparse.ArgumentTypeError("expected 'auto' or a positive number")
    return x


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant", nargs="?", default="block")
    ap.add_argument("--hands", type=int, default=200, help="hands per pairing")
    ap.add_argument(
        "--pairs",
        default="medium:easy,hard:easy,hard:medium",
        help="comma-separated a:b level pairs",
    )
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--set", type=int, default=None, dest="set_max")
    ap.add_argument("--partnership", action="store_true")
    ap.add_argument("--budget-ms", type=float, default=150.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=10, help="deals per job")
    ap.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="the first deal's seed (the deals are first-seed, first-seed + 1, ...)",
    )
    ap.add_argument(
        "--machine-speed",
        type=machine_speed_arg,
        default=None,
        help="'auto' (measure, the default) or a fixed figure (1.0: calibration)",
    )
    ap.add_argument(
        "--no-safety-stop",
        action="store_true",
        help="turn hard's wall-clock safety stop off (same decisions under any load)",
    )
    ap.add_argument(
        "--versus-package",
        action="store_true",
        help="hard against the dominoes package's player and against medium in "
        "the package's game "
        "(block, 4 seats in partnerships, 7 tiles each; the bench extra)",
    )
    args = ap.parse_args(argv)
    if args.versus_package:
        args.variant, args.seats, args.partnership = "block", 4, True
        args.set_max, args.pairs = 6, f"hard:{PACKAGE},hard:medium"
    if args.no_safety_stop:
        budget.SAFETY = math.inf  # the workers are forked: they inherit it
    over: dict[str, object] = {"seats": args.seats}
    if args.set_max is not None:
        over["set_max"] = args.set_max
    if args.partnership:
        over["partnership"] = True
    if args.versus_package:
        over["tiles_per_seat"] = 7
    options = options_for(args.variant, **over)  # type: ignore[arg-type]
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    for a, b in pairs:
        if a not in (*LEVELS, PACKAGE) or b not in (*LEVELS, PACKAGE):
            ap.error(f"unknown level in {a}:{b}")
    if PACKAGE in {x for p in pairs for x in p} and not args.versus_package:
        ap.error("the package's player plays only with --versus-package")
    deals = (args.hands + 1) // 2
    speed = args.machine_speed
    how = "fixed"
    if speed is None:
        speed, how = measure_speed(), "measured"
    todo = list(
        jobs(options, pairs, deals, args.batch, args.budget_ms, speed, args.first_seed)  # type: ignore[arg-type]
    )
    totals = {(a, b): Tally(a, b) for a, b in pairs}
    worker_rss = 0
    t0 = time.time()
    print(
        f"{args.variant} seats={args.seats} set={options.set_max} "
        f"partnership={options.partnership} hands/pairing={2 * deals} "
        f"budget={args.budget_ms:g} ms machine speed={speed:g} ({how}) "
        f"workers={args.workers} first seed={args.first_seed}",
        flush=True,
    )
    with Pool(args.workers) as pool:
        for done, (a, b, tally, rss) in enumerate(
            pool.imap_unordered(run_job, todo), 1
        ):
            totals[(a, b)].merge(tally)
            worker_rss = max(worker_rss, rss)
            t = totals[(a, b)]
            print(
                f"  [{done}/{len(todo)}] {a} vs {b}: {t.hands} hands, "
                f"{a} wins {100 * t.wins / t.hands:.1f}% ({time.time() - t0:.0f} s)",
                flush=True,
            )
    spider = options.variant == "spider"
    print()
    print(
        "| pairing (a vs b) | hands | a's hand win rate (95%) | ties "
        "| points per hand (a vs b) | a wall ms p50 / p95 | a CPU ms p50 / p95 "
        "| b wall ms p50 / p95 | b CPU ms p50 / p95 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for key in totals:
        print(summary(totals[key], spider))
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print()
    print(
        f"peak memory: main {own / 1024:.0f} MB, largest worker "
        f"{max(worker_rss, kids) / 1024:.0f} MB; wall time {time.time() - t0:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
