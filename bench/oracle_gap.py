"""What hidden information is worth to ``hard``: the same search, told the truth.

Usage::

    .venv/bin/python bench/oracle_gap.py VARIANT --hands N --know deal|hands|none
        [--first-seed 100000] [--machine-speed 0.3] [--workers 2]

A diagnostic, not a bot: ``hard`` against ``medium`` with two seats, mirrored
deals played by ``bot_tournament.play_hand``, where ``hard``'s ``model_search``
(block, All Fives, Fives and Threes) samples, instead of deals consistent with
its view,

* ``deal``: the true deal, the opponent's hand and the stock's order;
* ``hands``: the opponent's true hand, with the stock in a random order;
* ``none``: deals consistent with its view, as ``hard`` plays (the baseline).

The gap between ``none`` and ``hands`` bounds what better inference of the
opponent's tiles could still give; the rest of ``deal``'s gain is the stock's
order, which no inference can know. Printed: ``hard``'s hand win rate with a
95% interval and the points per hand of both (no timings: the search is not
what is measured here).

Not measured, besides time:

* opponents other than ``medium``, more than two seats, variants where ``hard``
  does not run ``model_search``;
* the same work on every run: ``--machine-speed`` fixes the counted work, but the
  wall-clock safety stop (``games.bots.hard.budget``) stays on, so a loaded machine
  can cut a decision short;
* whole matches: one hand per deal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_tournament import (
    Tally,
    play_hand,
    pooled,
    seed_batches,
    win_rate,
)
from games.bots.hard import model_search as model_search_module
from games.bots.knowledge import Knowledge
from games.engine import State, options_for
from games.engine.options import rules_for
from games.engine.variants import LINE, STOCK_NONE

_truth: list[State] = []  # the state of the decision being made (one per process)


Masks = tuple[list[int], tuple[int, ...]]


def _told(know: str) -> Callable[[Knowledge, random.Random, int, int, int], Masks]:
    """A ``deal_masks`` that returns the truth (``know``) instead of a sample."""

    def deal_masks(
        k: Knowledge, rng: random.Random, seats: int, seat: int, own: int
    ) -> Masks:
        s = _truth[0]
        stock = list(s.stock)
        if know == "hands":
            rng.shuffle(stock)
        return list(s.hands), tuple(stock)

    return deal_masks


def run(args: tuple[str, tuple[int, ...], float, str]) -> Tally:
    """Play every deal of a batch twice (seats swapped), ``hard`` told ``know``."""
    variant, seeds, speed, know = args
    if know != "none":
        setattr(model_search_module, "deal_masks", _told(know))  # noqa: B010
    options = options_for(variant, seats=2)
    tally = Tally("hard", "medium")
    for seed in seeds:
        for levels in (["hard", "medium"], ["medium", "hard"]):
            play_hand(options, seed, levels, 150.0, tally, speed, before=_see)
    return tally


def _see(s: State) -> None:
    _truth[:] = [s]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--know", choices=["deal", "hands", "none"], required=True)
    ap.add_argument("--first-seed", type=int, default=100_000)
    ap.add_argument("--machine-speed", type=float, default=0.3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    r = rules_for(options_for(args.variant, seats=2))
    if r.layout != LINE or not (r.end_scoring or r.stock == STOCK_NONE):
        ap.error("hard plays model_search only in block, all_fives, fives_and_threes")
    lo = args.first_seed
    hi = lo + (args.hands + 1) // 2
    jobs = [
        (args.variant, seeds, args.machine_speed, args.know)
        for seeds in seed_batches(lo, hi - lo, 25)
    ]
    t0 = time.time()
    total = pooled(run, jobs, args.workers, Tally("hard", "medium"))
    print(
        f"{args.variant} know={args.know} seeds {lo}..{hi - 1} "
        f"machine speed={args.machine_speed:g}; wall time {time.time() - t0:.0f} s"
    )
    p, half = win_rate(total)
    ph = total.points["hard"] / total.hands
    pm = total.points["medium"] / total.hands
    print(
        f"hard vs medium: {total.hands} hands, hard wins {100 * p:.1f}% "
        f"± {100 * half:.1f} ({total.ties} ties), points per hand {ph:.2f} vs "
        f"{pm:.2f} ({100 * (ph / pm - 1):+.0f}%)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
