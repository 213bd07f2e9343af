"""``easy``: a random legal tile, a forgetful claimer, never a Muggins caller.

Decisions: in its turn it picks one of the tiles it may play, each with the same
chance, then one of the ends that tile fits (Spider: a set of doubles laid
together counts as one choice, like a tile); any other action it may take then
(draw, pass, close, continue) is one more choice with the same chance. So a
tile that fits both ends is not played twice as often as one that fits one: a
random legal tile, not a random legal action. In the claim
phase it continues without claiming with probability ``FORGET`` (30%), leaving
the points for a human to take with Muggins; it never calls Muggins, so when
Muggins is all it may do (out of turn) it answers ``None``; in its turn it
ignores the Muggins option and plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.interface import BotBase
from games.engine import Action
from games.engine.actions import CLAIM, CONTINUE, MUGGINS, NEXT_HAND, PLAY, PLAY_DOUBLES

FORGET = 0.3


def _choice(a: Action) -> tuple[object, ...]:
    """What ``a`` chooses: the tile (or Spider's set of doubles) for a play,
    the action itself otherwise; the end is chosen afterwards."""
    if a.type == PLAY:
        return (PLAY, a.tile)
    if a.type == PLAY_DOUBLES:
        return (PLAY, tuple(t for t, _ in a.plays))
    return (a,)


def random_move(acts: list[Action], rng: random.Random) -> Action:
    """A random tile of ``acts`` (or any other action, each one choice), then a
    random end for it."""
    groups: dict[tuple[object, ...], list[Action]] = {}
    for a in acts:
        groups.setdefault(_choice(a), []).append(a)
    options = list(groups.values())
    pick = options[rng.randrange(len(options))]
    return pick[rng.randrange(len(pick))] if len(pick) > 1 else pick[0]


@dataclass(frozen=True)
class EasyBot(BotBase):
    """Random legal tile."""

    level: str = "easy"

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """A random legal tile, then a random end for it (see the module
        docstring, which also covers claims)."""
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
        return random_move(acts, rng)
