"""Hands per match of each online pool at each target, played by the engine's bots.

Every seat is a ``medium`` bot (it plays for points the way a fair player does);
each match is dealt by the engine from its own seed and played to ``match_over``.
The figures choose ``MATCHMAKING_POOLS``' targets and the "about N hands" of the
lobby's pool cards (``config/settings.py``).

Not measured: time (hands, not minutes: no turn clocks, thinking or pauses between
hands); people's play (every seat is ``medium``; nobody leaves, times out or
forfeits); the pools' own ``options`` and ``hands`` (every target the variant offers
is played with the pool's seats and partnership; nothing is compared with
``hands``).

Usage::

    .venv/bin/python bench/pool_lengths.py                 # every pool, 40 matches
    .venv/bin/python bench/pool_lengths.py --matches 100 --only block-2
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402

from games.bots import choose  # noqa: E402
from games.engine import (  # noqa: E402
    VARIANTS,
    Action,
    apply,
    legal_actions,
    new_match,
    options_for,
    view,
)


def hands_of_match(variant: str, options: dict[str, Any], seed: int) -> int:
    """Hands one match of medium bots takes to end."""
    opts = options_for(variant, **options)
    state = new_match(opts, seed)
    rng = random.Random(seed)
    while state.phase != "match_over":
        if state.phase == "hand_over":
            state = apply(state, 0, Action.next_hand())
            continue
        moved = False
        for seat in range(opts.seats):
            legal = legal_actions(state, seat)
            if not legal:
                continue
            action = choose("medium", view(state, seat), legal, rng)
            if action is None:
                continue
            state = apply(state, seat, action)
            moved = True
            break
        if not moved:
            raise RuntimeError(f"{variant}: nobody can act in phase {state.phase}")
    return int(state.hand_no)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    print(f"{'pool':<16}{'target':>7}{'mean hands':>12}{'median':>8}{'p90':>6}")
    for entry in settings.MATCHMAKING_POOLS:
        key = str(entry["key"])
        if args.only and key not in args.only:
            continue
        variant = str(entry["variant"])
        base = {
            "seats": int(str(entry["seats"])),
            "partnership": bool(entry.get("partnership", False)),
        }
        for target in VARIANTS[variant].targets:
            hands = sorted(
                hands_of_match(variant, {**base, "target": target}, seed)
                for seed in range(args.matches)
            )
            p90 = hands[int(0.9 * (len(hands) - 1))]
            print(
                f"{key:<16}{target:>7}{statistics.mean(hands):>12.1f}"
                f"{statistics.median(hands):>8.0f}{p90:>6}",
                flush=True,
            )


if __name__ == "__main__":
    main()
