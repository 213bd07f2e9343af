"""The cost of the fair deal (RULES.md §1.1) per hand, beside the old Random deal.

For each case, the median time of dealing one hand both ways, through the engine's
public API: ``new_match(options, seed)`` (``random.Random(f"{seed}:1")``, the deal of
tables before fair deals) and ``new_match(options, seed, fair=...)`` (the chain link
``h_1``, 255 SHA-256, then HMAC-SHA-256 blocks and the rejection-sampled shuffle,
redeals included). Hand 1 is the dearest hand of a chain: hand k hashes 256 - k times.
The goal (issue 33): no more than 1 ms more per hand.

What it does not measure: the database write of the deal, the frames, the ``seed``
frames and the seeding window (up to 3 s of waiting, not of CPU), ``fair.json``
(which recomputes every revealed hand on each request), or a loaded machine.

Usage::

    .venv/bin/python bench/fair_deal.py                   # every case, 2000 deals
    .venv/bin/python bench/fair_deal.py --deals 200 --runs 3
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import new_match, options_for
from games.engine.fair import FairDeal

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "block-2 (d6)": ("block", {"seats": 2}),
    "draw-4 (d6)": ("draw", {"seats": 4}),
    "cross-4 (d9)": ("cross", {"seats": 4, "set_max": 9}),
    "block-4 (d12)": ("block", {"seats": 4, "set_max": 12}),
}


def per_deal(deals: int, make: Any) -> float:
    """Seconds per deal of ``deals`` calls of ``make(i)``."""
    start = time.perf_counter()
    for i in range(deals):
        make(i)
    return (time.perf_counter() - start) / deals


def measure(options: Any, args: argparse.Namespace) -> tuple[float, float]:
    """Median milliseconds per deal: the Random deal, the fair deal."""
    tops = [secrets.token_bytes(32) for _ in range(args.deals)]
    seeds = tuple("s" * 32 for _ in range(options.seats))
    old, new = [], []
    for _ in range(args.runs):
        old.append(per_deal(args.deals, lambda i: new_match(options, i)))
        new.append(
            per_deal(
                args.deals,
                lambda i: new_match(
                    options, i, fair=FairDeal(i + 1, (tops[i],), seeds)
                ),
            )
        )
    return statistics.median(old) * 1000, statistics.median(new) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'case':<16} {'Random ms':>10} {'fair ms':>10} {'extra ms':>10}")
    for name, (variant, overrides) in CASES.items():
        old_ms, new_ms = measure(options_for(variant, **overrides), args)
        print(f"{name:<16} {old_ms:>10.3f} {new_ms:>10.3f} {new_ms - old_ms:>10.3f}")
    print(f"median of {args.runs} runs of {args.deals} deals each, one core")


if __name__ == "__main__":
    main()
