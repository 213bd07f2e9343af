"""Decisions every level shares, and the ``Bot`` protocol."""

from __future__ import annotations

import random
import time
from typing import Any, Protocol

from games.engine import Action
from games.engine.actions import CLAIM, MUGGINS, NEXT_HAND


class Bot(Protocol):
    """A computer player: one decision from what its seat may know.

    ``decide`` may raise on a bug; ``choose`` (see ``games.bots.safe_choose``)
    never does.
    """

    @property
    def level(self) -> str:
        """The level's name: "easy", "medium" or "hard"."""
        ...

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """The action to take, or ``None`` to let an out-of-turn window pass."""
        ...

    def choose(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """``decide``, but never raising and never illegal."""
        ...


def routine(legal: list[Action], *, greedy_claims: bool) -> Action | None:
    """The decisions that need no thought, or ``None`` when thought is needed.

    One legal action (not a Muggins call) is taken at once; ``next_hand`` is
    always sent; with ``greedy_claims`` (medium, hard) a Muggins call or a claim
    is always made as soon as it is legal: points are never worth leaving.
    """
    if not legal:
        return None
    if len(legal) == 1 and legal[0].type not in (MUGGINS,):
        return legal[0]
    for a in legal:
        if a.type == NEXT_HAND:
            return a
    if greedy_claims:
        for a in legal:
            if a.type in (MUGGINS, CLAIM):
                return a
    return None


def safe_choose(
    bot: Bot, view: dict[str, Any], legal: list[Action], rng: random.Random
) -> Action | None:
    """Run ``bot.decide``; fall back to the first legal action on any surprise.

    ``None`` is kept only when the seat may pass up an out-of-turn Muggins call
    (every legal action is ``muggins``); then it is the bot's way to say "no".
    """
    if not legal:
        return None
    try:
        a = bot.decide(view, legal, rng)
    except Exception:  # noqa: BLE001 - a bot must never take a table down
        return legal[0]
    if a is None:
        if all(x.type == MUGGINS for x in legal):
            return None
        return legal[0]
    if a not in legal:
        return legal[0]
    return a


SAFETY = 4.0
SAFETY_SLACK_MS = 250.0


def safety_deadline(budget_ms: float) -> float:
    """The ``perf_counter`` time past which a search stops whatever work it has
    left: ``SAFETY`` times its budget plus ``SAFETY_SLACK_MS``. Searches count
    their work instead of timing it (the same view, legal actions and seed give
    the same move on any machine); this stop is only there for a machine far
    slower than the calibration one."""
    return time.perf_counter() + (SAFETY * budget_ms + SAFETY_SLACK_MS) / 1e3
