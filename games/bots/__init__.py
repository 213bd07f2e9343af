"""Computer players: ``easy``, ``medium`` and ``hard``, for every variant.

Pure like the engine (no Django, no I/O, no clock in what is decided); an
import-linter contract keeps it so.

Public API
==========

``from games.bots import choose, LEVELS, Bot, bot_for``

``LEVELS = ("easy", "medium", "hard")``.

``choose(level, view, legal, rng, *, budget_ms=None, machine_speed=1.0)``
    ``-> Action | None``
    One decision for one seat. ``view`` is ``games.engine.view(state, seat)``,
    ``legal`` is ``games.engine.legal_actions(state, seat)``, ``rng`` a
    ``random.Random`` seeded for this decision (the live tables use
    ``random.Random(f"{table_seed}:{seq}")``). ``budget_ms`` sets ``hard``'s
    thinking budget (default ``DEFAULT_BUDGET_MS`` = 150 ms) and ``machine_speed``
    how fast the host machine is against the one that budget was calibrated on
    (``games.bots.hard.machine.measure_speed``; 1.0 by default); other levels ignore
    both.

``bot_for(level, *, budget_ms=None, machine_speed=1.0) -> Bot``: the same as an object;
``bot.choose(view, legal, rng)``.

The interface
-------------
A bot sees only what its seat may know: the view (own hand, the board, hand
counts, stock size, scores, the claim window and the public history of the hand:
plays, draws without their tiles, passes, claims, Muggins calls, closes; the
bots read it from ``view["public_state"]``, the public part of the engine state)
and its legal actions. It never receives the hidden state, so it cannot cheat;
any engine that produces the same view can host it.

Guarantees:

* The result is one of ``legal``; the bots never raise (an unexpected error
  falls back to ``legal[0]``, silently: pure code logs nothing).
* ``None`` is returned only when every legal action is ``muggins`` (an
  opponent's out-of-turn Muggins window) and the bot does not call it: ``easy``
  never calls Muggins. The caller then simply does nothing for that seat.
  ``medium`` and ``hard`` always call it. With an empty ``legal``: ``None``.
* Deterministic: the same (view, legal, rng seed) gives the same action, for
  ``hard`` at the same ``machine_speed``: it bounds its search by a count of search
  units calibrated to the budget, not by the clock (``games.bots.hard.budget``).
* In "hand_over" every bot returns ``next_hand``; in "claim" ``medium`` and
  ``hard`` claim, ``easy`` forgets (continues) 30% of the time.

Levels
------
``easy`` (``easy``): a random legal tile, then a random end. ``medium``
(``medium``): one-move heuristics - shed weight, doubles early, keep tiles that
fit, block numbers an opponent lacks, score and do not set up the next seat.
``hard`` (``hard``): Monte Carlo search over deals of the unseen tiles
consistent with the public history, each deal weighed by how well it explains
the opponents' plays; ``games.bots.hard``'s docstring tells how it chooses,
and its ``SEARCHES`` table which search each variant runs.

Layout
------
* ``interface``: the ``Bot`` protocol, ``BotBase`` (the safe ``choose`` every
  level shares) and ``ThinkingBot`` (``medium`` and ``hard``: the routine
  decisions at once, ``think`` for the others);
* ``board`` (the public board of a view and what a play does to it) and
  ``knowledge`` (what the public history tells about the hidden tiles): the
  positions ``medium`` and ``hard`` read;
* ``easy``, ``medium``: the two simple levels;
* ``hard/``: the search level (``hard/__init__``: ``HardBot``, the table from
  variant to search; ``budget``, ``deals``, ``inference``, ``line_model``,
  ``line_playout``, ``means``: its parts; ``model_search``, ``line_search``,
  ``playouts``: its searches; ``machine``: the machine speed).
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.easy import EasyBot
from games.bots.hard import DEFAULT_BUDGET_MS, HardBot
from games.bots.interface import Bot
from games.bots.medium import MediumBot
from games.engine import Action

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

_EASY = EasyBot()
_MEDIUM = MediumBot()
_HARD = HardBot()


def bot_for(
    level: str, *, budget_ms: float | None = None, machine_speed: float = 1.0
) -> Bot:
    """The bot of a level (``ValueError`` for an unknown level or a
    ``machine_speed`` that is not a positive number)."""
    if level == "easy":
        return _EASY
    if level == "medium":
        return _MEDIUM
    if level == "hard":
        if not machine_speed > 0 or machine_speed == float("inf"):
            raise ValueError(
                f"machine_speed must be a positive number: {machine_speed!r}"
            )
        if (
            budget_ms is None or budget_ms == DEFAULT_BUDGET_MS
        ) and machine_speed == 1.0:
            return _HARD
        return HardBot(
            budget_ms=DEFAULT_BUDGET_MS if budget_ms is None else float(budget_ms),
            machine_speed=float(machine_speed),
        )
    raise ValueError(f"unknown bot level {level!r}; choose one of {LEVELS}")


def choose(
    level: str,
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    machine_speed: float = 1.0,
) -> Action | None:
    """One decision of a ``level`` bot for the seat of ``view`` (see above)."""
    return bot_for(level, budget_ms=budget_ms, machine_speed=machine_speed).choose(
        view, legal, rng
    )


__all__ = [
    "DEFAULT_BUDGET_MS",
    "LEVELS",
    "Bot",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "bot_for",
    "choose",
]
