"""Deals of the unseen tiles consistent with everything public (determinization).

Decision: a deal is drawn by shuffling the unseen tiles and filling the most
constrained seat first, skipping tiles its limits forbid; the rest is the stock in
the shuffled order. A dead end (rare: tight limits) is retried; after
``_ATTEMPTS`` failures the limits are dropped rather than never answering. The
result is not exactly uniform over consistent deals, which PIMC tolerates; it
never contradicts a pass or a draw.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.knowledge import Knowledge, fits
from games.engine import State, determinize
from games.engine.tiles import PAIRS, bits

_ATTEMPTS = 12

Deal = tuple[dict[int, list[tuple[int, int]]], list[tuple[int, int]]]


def sample_deal(k: Knowledge, rng: random.Random) -> Deal:
    """Hidden hands (per other seat) and the stock, consistent with ``k``."""
    pool = list(bits(k.unseen))
    others = [s for s in range(len(k.counts)) if s != k.seat]
    order = sorted(
        others, key=lambda s: -sum(1 + 100 // (1 + a) for _, a in k.limits[s])
    )
    for attempt in range(_ATTEMPTS + 1):
        rng.shuffle(pool)
        strict = attempt < _ATTEMPTS
        left = pool
        hands: dict[int, list[int]] = {}
        ok = True
        for s in order:
            need = k.counts[s]
            lim = k.limits[s] if strict else ()
            taken = [0] * len(lim)
            got: list[int] = []
            rest: list[int] = []
            for t in left:
                if len(got) < need and fits(lim, t, taken):
                    got.append(t)
                    for i, (m, _) in enumerate(lim):
                        if m >> t & 1:
                            taken[i] += 1
                else:
                    rest.append(t)
            if len(got) < need:
                ok = False
                break
            hands[s] = got
            left = rest
        if ok:
            return (
                {s: [PAIRS[t] for t in h] for s, h in hands.items()},
                [PAIRS[t] for t in left],
            )
    raise ValueError("no deal fits the view")  # unreachable: the last try is free


def sample_state(view: dict[str, Any], k: Knowledge, rng: random.Random) -> State:
    """A full engine state: the view plus one sampled deal of the hidden tiles."""
    hands, stock = sample_deal(k, rng)
    return determinize(view, hands, stock)
