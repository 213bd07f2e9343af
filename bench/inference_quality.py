"""How well ``hard``'s sampled, weighted deals know the opponent's hand.

Usage::

    .venv/bin/python bench/inference_quality.py VARIANT [--deals 60]
        [--samples 300] [--beta 0,3] [--first-seed 900]

A diagnostic for ``inference`` and ``knowledge`` without playing tournaments:
``medium`` plays ``medium`` (two seats) on ``--deals`` deals; at each of seat
0's plays with a choice (after the first three tiles) the deals ``hard``
would weigh are drawn as ``model_search`` draws them (``deal_masks``, then
``inference.log_likelihood`` of the opponent's past plays at each ``--beta``;
0 leaves the plays out, only passes and draws count). Printed per ``BETA``:

* the cross-entropy per unseen tile of the weighted chance that the tile is in
  the opponent's hand, against the truth (lower is better);
* the mean chance given to the opponent's true tiles;
* the mean effective number of deals, (sum of weights)^2 / sum of squares.

``bench/oracle_gap.py`` shows what knowing the hand is worth to ``hard``; this
shows how far the weighted deals are from knowing it, in seconds.

Not measured:

* strength: no game is played with the weighted deals;
* cost: only the whole run's wall time is printed, nothing per deal or position;
* ``hard``'s own number of deals: a fixed ``--samples`` per position, not as many
  as its budget would draw;
* the stock's order (what a draw brings): only which tiles the opponent holds is
  scored;
* positions other than seat 0's in two-seat ``medium`` play on a line, in hand 1
  of each deal: not ``hard``'s own games, people's, or more seats.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import bot_for
from games.bots.board import hand_mask
from games.bots.hard import inference
from games.bots.hard.deals import deal_masks
from games.bots.knowledge import knowledge_of
from games.engine import (
    apply,
    current_seat,
    legal_actions,
    new_match,
    options_for,
    view,
)
from games.engine.options import rules_for
from games.engine.tiles import bits

Position = tuple[dict[str, Any], int]  # seat 0's view, seat 1's true hand


def positions(variant: str, first_seed: int, deals: int) -> list[Position]:
    """Seat 0's plays with a choice in ``medium`` against ``medium``."""
    options = options_for(variant, seats=2)
    bot = bot_for("medium")
    out: list[Position] = []
    for seed in range(first_seed, first_seed + deals):
        s = new_match(options, seed)
        while s.phase in ("play", "claim"):
            turn = current_seat(s)
            assert turn is not None
            for seat in (1 - turn, turn):
                legal = legal_actions(s, seat)
                if not legal:
                    continue
                v = view(s, seat)
                played = v["public_state"]["played"]
                if seat == 0 and s.phase == "play" and len(legal) > 1 and played > 2:
                    out.append((v, s.hands[1]))
                a = bot.choose(v, legal, random.Random(seed))
                if a is None:
                    continue
                s = apply(s, seat, a)
                break
    return out


def quality(pos: list[Position], samples: int, full: int) -> tuple[float, float, float]:
    """Cross-entropy per unseen tile, mean chance on the true tiles, mean
    effective number of deals (at the current ``inference.BETA``)."""
    loss = 0.0
    tiles = 0
    on_true = 0.0
    true_tiles = 0
    ess = 0.0
    for i, (v, opponent) in enumerate(pos):
        k = knowledge_of(v)
        own = hand_mask(v)
        events = inference.play_events(v) if inference.BETA else []
        rng = random.Random(i)
        cache = inference.TermCache()
        logs: list[float] = []
        hands: list[int] = []
        for _ in range(samples):
            dealt, _stock = deal_masks(k, rng, 2, 0, own)
            logs.append(
                inference.log_likelihood(events, dealt, full, cache) if events else 0.0
            )
            hands.append(dealt[1])
        top = max(logs)
        w = [math.exp(x - top) for x in logs]
        total = sum(w)
        ess += total * total / sum(x * x for x in w)
        for t in bits(k.unseen):
            p = sum(wi for wi, h in zip(w, hands, strict=True) if h >> t & 1) / total
            p = min(max(p, 1e-3), 1 - 1e-3)
            held = opponent >> t & 1
            loss -= math.log(p if held else 1 - p)
            tiles += 1
            if held:
                on_true += p
                true_tiles += 1
    return loss / tiles, on_true / true_tiles, ess / len(pos)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--beta", default="0,3", help="comma-separated BETA values")
    ap.add_argument("--first-seed", type=int, default=900)
    args = ap.parse_args(argv)
    r = rules_for(options_for(args.variant, seats=2))
    if r.layout != "line":
        ap.error("inference reads plays on a line only")
    t0 = time.time()
    pos = positions(args.variant, args.first_seed, args.deals)
    print(f"{args.variant}: {len(pos)} positions from {args.deals} deals")
    for beta in (float(b) for b in args.beta.split(",")):
        inference.BETA = beta
        ce, hit, ess = quality(pos, args.samples, r.full)
        print(
            f"BETA {beta:g}: cross-entropy per unseen tile {ce:.4f}, "
            f"chance on the true tiles {hit:.4f}, effective deals {ess:.0f} "
            f"of {args.samples}"
        )
    print(f"wall time {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
