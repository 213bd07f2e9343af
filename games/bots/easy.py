"""``easy``: a random legal move, a forgetful claimer, never a Muggins caller.

Decisions: in the claim phase it continues without claiming with probability
``FORGET`` (30%), leaving the points for a human to take with Muggins; it never
calls Muggins, so when Muggins is all it may do (out of turn) it answers
``None``; in its turn it ignores the Muggins option and plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.common import safe_choose
from games.engine import Action
from games.engine.actions import CLAIM, CONTINUE, MUGGINS, NEXT_HAND

FORGET = 0.3


@dataclass(frozen=True)
class EasyBot:
    """Random legal play."""

    level: str = "easy"

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """A random legal action (see the module docstring for claims)."""
        acts = [a for a in legal if a.type != MUGGINS]
        if not acts:
            return None
        for a in acts:
            if a.type == NEXT_HAND:
                return a
        if any(a.type == CLAIM for a in acts):
            forget = rng.random() < FORGET
            want = CONTINUE if forget else CLAIM
            return next(a for a in acts if a.type == want)
        return acts[rng.randrange(len(acts))]

    def choose(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """``decide`` that never raises."""
        return safe_choose(self, view, legal, rng)
