"""The bot interface: the ``Bot`` protocol, ``BotBase`` (its shared
``choose``, through ``safe_choose``) and ``ThinkingBot`` (``medium`` and
``hard``: the routine decisions at once, ``think`` for the rest)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from games.engine import Action
from games.engine.actions import CLAIM, MUGGINS, NEXT_HAND


class Bot(Protocol):
    """A computer player: one decision from what its seat may know.

    ``decide`` may raise on a bug; ``choose`` (``safe_choose``)
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
    except Exception:  # a bot must never take a table down
        return legal[0]
    if a is None:
        if all(x.type == MUGGINS for x in legal):
            return None
        return legal[0]
    if a not in legal:
        return legal[0]
    return a


class BotBase:
    """What every level shares: ``choose`` is ``decide`` made safe
    (``safe_choose``); a level defines ``level`` and ``decide``."""

    level: str

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """The level's decision (see ``Bot.decide``)."""
        raise NotImplementedError

    def choose(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """``decide`` that never raises and never answers an illegal action."""
        return safe_choose(self, view, legal, rng)


class ThinkingBot(BotBase):
    """``medium`` and ``hard``: the routine decisions at once (``routine``,
    claims and Muggins calls always made), ``think`` for the others."""

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        """``routine``'s answer, else ``think``'s."""
        quick = routine(legal, greedy_claims=True)
        if quick is not None:
            return quick
        return self.think(view, legal, rng)

    def think(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action:
        """A decision that needs thought (several legal actions)."""
        raise NotImplementedError
