"""How much better than ``medium`` a one-move choice can do against ``easy``.

Usage::

    .venv/bin/python bench/medium_headroom.py VARIANT --hands N
        [--deals-per-move 128] [--know none|deal] [--first-seed 0] [--workers 2]

A diagnostic, not a bot: the ``rollout`` player takes ``medium``'s candidate
plays and, at every decision with more than one, follows each to the end of the
hand over ``--deals-per-move`` deals sampled from its view (the same deals for
every candidate), with ``medium`` playing its own seat and ``easy``'s policy
(``easy.random_move``: a random tile, then a random end) the other; it plays
the candidate that wins most often (ties: ``medium``'s order). That is one
step of policy improvement of ``medium`` against the real opponent: how far
``medium``'s one-move choice is from the best one, with ``medium`` playing the
rest of the hand.
``--know deal`` samples the true deal instead (the bound with perfect
information). Two seats, variants won by the hand's winner (block, draw).

The games are ``bot_tournament.play_hand``'s, and the rollout player takes
``medium``'s place in them: the same mirrored deals and the same random streams
for ``easy``, so a hand departs from ``bot_tournament.py VARIANT --pairs
medium:easy``'s only where the rollout player departs from ``medium``. Printed:
the rollout player's hand win rate against ``easy`` with a 95% interval.

Not measured:

* cost: no decision is timed; only the whole run's wall time is printed;
* choices other than between plays: with at most one legal play (draws, passes,
  claims) ``medium`` decides;
* opponents other than ``easy`` (the playouts assume its policy and the games are
  against it), more than one step of improvement, more than two seats;
* whole matches: one hand per deal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_tournament import (
    Tally,
    play_hand,
    pooled,
    seed_batches,
    win_rate,
)
from games.bots.easy import random_move
from games.bots.hard.deals import sample_state
from games.bots.interface import safe_choose
from games.bots.knowledge import knowledge_of
from games.bots.medium import MediumBot, ranked_plays
from games.engine import (
    Action,
    State,
    apply,
    current_seat,
    legal_actions,
    options_for,
    view,
)
from games.engine.actions import PLAY
from games.engine.options import rules_for

_MEDIUM = MediumBot()
_LIVE = ("play", "claim", "close")
_truth: list[State] = []  # the state of the decision being made (one per process)


def finish(s: State, me: int, rng: random.Random) -> float:
    """Play ``s`` to the end, ``medium`` in seat ``me`` and ``easy``'s random
    moves elsewhere; 1 if ``me`` wins the hand, 0 if not, 0.5 a tie."""
    while s.phase in _LIVE:
        turn = current_seat(s)
        assert turn is not None
        legal = legal_actions(s, turn)
        if turn != me:
            a: Action | None = random_move(legal, rng)
        elif len(legal) > 1:
            a = _MEDIUM.decide(view(s, turn), legal, rng)
        else:
            a = legal[0]
        assert a is not None
        s = apply(s, turn, a)
    w = s.last_winner if s.phase == "hand_over" or s.hand_result else -1
    return 0.5 if w < 0 else 1.0 if w == me else 0.0


@dataclass(frozen=True)
class RolloutBot:
    """``medium``'s candidates, ranked by playouts against ``easy``'s policy."""

    deals: int
    oracle: bool = False
    level: str = "rollout"

    def decide(
        self, v: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        if sum(1 for a in legal if a.type == PLAY) <= 1:
            return _MEDIUM.decide(v, legal, rng)
        cands = ranked_plays(v, legal)
        k = knowledge_of(v)
        me: int = v["seat"]
        wins = [0.0] * len(cands)
        for i in range(self.deals):
            deal = random.Random(rng.random())
            base = _truth[0] if self.oracle else sample_state(v, k, deal)
            for j, a in enumerate(cands):
                wins[j] += finish(apply(base, me, a), me, random.Random(i))
        best = max(range(len(cands)), key=lambda j: (wins[j], -j))
        return cands[best]

    def choose(
        self, v: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        return safe_choose(self, v, legal, rng)


def _see(s: State) -> None:
    _truth[:] = [s]


def run(args: tuple[str, tuple[int, ...], int, bool]) -> Tally:
    """Play every deal of a batch twice (seats swapped)."""
    variant, seeds, deals, oracle = args
    options = options_for(variant, seats=2)
    bots = {"medium": RolloutBot(deals, oracle)}  # in medium's seat (docstring)
    tally = Tally("medium", "easy")
    for seed in seeds:
        for levels in (["medium", "easy"], ["easy", "medium"]):
            play_hand(options, seed, levels, 150.0, tally, before=_see, extra=bots)
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--deals-per-move", type=int, default=128)
    ap.add_argument("--know", choices=["deal", "none"], default="none")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    r = rules_for(options_for(args.variant, seats=2))
    if r.end_scoring or args.variant == "spider":
        ap.error("a variant won by the hand's winner: block, draw, cross, catalan")
    if args.deals_per_move < 1:
        ap.error("--deals-per-move must be at least 1")
    lo = args.first_seed
    hi = lo + (args.hands + 1) // 2
    oracle = args.know == "deal"
    jobs = [
        (args.variant, seeds, args.deals_per_move, oracle)
        for seeds in seed_batches(lo, hi - lo, 25)
    ]
    t0 = time.time()
    total = pooled(run, jobs, args.workers, Tally("medium", "easy"))
    p, half = win_rate(total)
    print(
        f"{args.variant} know={args.know} deals per move={args.deals_per_move} "
        f"seeds {lo}..{hi - 1}; wall time {time.time() - t0:.0f} s"
    )
    print(
        f"rollout vs easy: {total.hands} hands, rollout wins {100 * p:.1f}% "
        f"± {100 * half:.1f} ({total.ties} ties)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
