"""The review's label thresholds per variant, from self-play.

Usage::

    nice .venv/bin/python bench/review_thresholds.py            # 6 hands a variant
    nice .venv/bin/python bench/review_thresholds.py --hands 40 \
        --levels easy,medium,hard
    nice .venv/bin/python bench/review_thresholds.py --only block --samples 32

For each variant (two seats, each variant's own set), hands 1 of deals 0, 1, ...
are played by the computer players of ``--levels``, seat 0 and seat 1 taking
the levels in turn (hand k: ``levels[k % n]`` at seat 0, ``levels[(k + 1) % n]``
at seat 1). Every decision of every hand is reviewed single dummy twice, with
two seeds, at ``--samples`` deals and ``--max-nodes`` nodes per deal
(``games.review.single.review_hand``), and the deal is valued under equal play
(``games.review.luck.deal_luck``). Measured per variant:

* ``loss``: the distribution of the decisions' losses (first seed), p50 p75 p90
  p95 p99, and the same per level;
* ``noise``: what sampling alone makes of a loss: ``|loss(seed A) -
  loss(seed B)|`` of the same decision, its 95th percentile;
* ``scale``: the median of the winning side's margin in the deal under equal
  play (the luck meter's value for the side it favours): what a typical won
  hand is worth.

The thresholds it implies (the rule docs/review.md states):

* inaccuracy: a fifth of a won hand, and never below the noise's p95;
* mistake: half a won hand, and at least twice the inaccuracy;
* blunder: a whole won hand, and at least twice the mistake;

each rounded to a whole point (the ladder's factors keep the three labels
apart where the noise floor lifts the inaccuracy). Then the labels those
thresholds give (with ``labels.MIN_Z``'s noise rule) per level: per 100
decisions, and the accuracy (share of decisions with no label).

What it does not measure: hands played by people, tables of more than two
seats, partnerships, double-9/12 sets (but Grand Cross's own double-9),
decisions late in a match (every hand is a match's first).
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
    VARIANTS,
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
from games.review.labels import MIN_Z
from games.review.luck import deal_luck
from games.review.single import review_hand

Steps = list[tuple[State, int, Action]]
LIVE = ("play", "claim", "close")


def self_play(o: Options, seed: int, levels: tuple[str, str]) -> Steps:
    """Hand 1 of deal ``seed``, ``levels[seat]`` playing each seat."""
    bots = [bot_for(level) for level in levels]
    s = new_match(o, seed)
    rng = random.Random(seed)
    steps: Steps = []
    while s.phase in LIVE:
        seat = current_seat(s)
        assert seat is not None
        a = bots[seat].choose(view(s, seat), legal_actions(s, seat), rng)
        assert a is not None
        steps.append((s, seat, a))
        s = apply(s, seat, a)
    return steps


def pct(xs: list[float], q: int) -> float:
    """The ``q``-th percentile (inclusive); 0 for no data."""
    if not xs:
        return 0.0
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=100, method="inclusive")[q - 1]


def implied(scale: float, noise95: float) -> tuple[int, int, int]:
    """The thresholds the rule of the module docstring gives."""
    inaccuracy = max(round(scale / 5), round(noise95 + 0.5), 1)
    mistake = max(round(scale / 2), 2 * inaccuracy)
    blunder = max(round(scale), 2 * mistake)
    return inaccuracy, mistake, blunder


def label(loss: float, error: float, t: tuple[int, int, int]) -> int | None:
    """0, 1, 2 for inaccuracy, mistake, blunder; None for no label."""
    if loss <= MIN_Z * error:
        return None
    if loss >= t[2]:
        return 2
    if loss >= t[1]:
        return 1
    if loss >= t[0]:
        return 0
    return None


def run(variant: str, args: argparse.Namespace, levels: list[str]) -> None:
    o = options_for(variant, seats=2)
    t0 = time.process_time()
    losses: dict[str, list[tuple[float, float]]] = {lv: [] for lv in levels}
    noise: list[float] = []
    won: list[float] = []
    for k in range(args.hands):
        pair = (levels[k % len(levels)], levels[(k + 1) % len(levels)])
        steps = self_play(o, 1000 + k, pair)
        a = review_hand(steps, seed=1, samples=args.samples, max_nodes=args.max_nodes)
        b = review_hand(steps, seed=2, samples=args.samples, max_nodes=args.max_nodes)
        for (_, ra), (_, rb) in zip(a, b, strict=True):
            losses[pair[ra.seat]].append((ra.loss, ra.error))
            noise.append(abs(ra.loss - rb.loss))
        luck = deal_luck(steps[0][0], max_nodes=args.luck_nodes)
        won.append(max(luck.luck))
    every = [x for lv in levels for x, _ in losses[lv]]
    scale = statistics.median(won) if won else 0.0
    n95 = pct(noise, 95)
    t = implied(scale, n95)
    qs = (50, 75, 90, 95, 99)
    print(
        f"{variant:<17} set {o.set_max} decisions {len(every):4d}"
        f" loss p50..p99 {' '.join(f'{pct(every, q):5.1f}' for q in qs)}"
        f" | noise p95 {n95:4.1f} | won-hand median {scale:5.1f}"
        f" | implied {t[0]} / {t[1]} / {t[2]}"
        f" | {time.process_time() - t0:5.1f} s CPU",
        flush=True,
    )
    for lv in levels:
        xs = losses[lv]
        if not xs:
            continue
        marks = [label(x, e, t) for x, e in xs]
        per100 = [100 * sum(1 for m in marks if m == i) / len(xs) for i in range(3)]
        accuracy = 100 * sum(1 for m in marks if m is None) / len(xs)
        print(
            f"    {lv:<7} decisions {len(xs):4d}"
            f" loss p50 {pct([x for x, _ in xs], 50):5.1f}"
            f" p90 {pct([x for x, _ in xs], 90):5.1f}"
            f" | per 100: inaccuracies {per100[0]:4.1f} mistakes {per100[1]:4.1f}"
            f" blunders {per100[2]:4.1f} | accuracy {accuracy:3.0f} %",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--max-nodes", type=int, default=4_000)
    ap.add_argument("--luck-nodes", type=int, default=50_000)
    ap.add_argument("--levels", default="easy,medium")
    ap.add_argument("--only", help="variants whose name starts with this")
    args = ap.parse_args()
    levels = args.levels.split(",")
    print(
        f"{args.hands} hands per variant, two seats, levels {', '.join(levels)};"
        f" {args.samples} deals per decision, {args.max_nodes} nodes per deal,"
        " two seeds"
    )
    for variant in VARIANTS:
        if args.only and not variant.startswith(args.only):
            continue
        run(variant, args, levels)


if __name__ == "__main__":
    main()
