"""``hard``: Monte Carlo search over deals consistent with the view.

How ``hard`` chooses, per decision that needs thought:

1. Routine decisions (one legal action, ``next_hand``, claims and Muggins
   calls) are taken at once (``interface.ThinkingBot``).
2. ``candidates``: ``medium``'s ranking of the plays, the best
   ``MAX_CANDIDATES`` kept (Spider's multi-double moves can be many); one
   candidate is played at once.
3. The variant's search (``SEARCHES``, the one table from variant to search)
   samples deals of the unseen tiles consistent with the public history
   (``deals``), weighs them by how well they explain the opponents' plays
   (``inference``) and values every candidate on them:

   * ``model_search`` (``block``, ``all_fives``, ``fives_and_threes``): each
     deal played out with every seat playing like ``medium``;
   * ``line_search`` (``draw``, ``catalan``): alpha-beta on each deal
     (``games.solver``'s search, the review's too);
   * ``playouts`` (the other layouts, and any decision whose candidates are not
     all plain plays): engine playouts with a greedy policy, gated so that
     noise does not beat ``medium``'s favourite.

4. The candidate with the best value is played (ties: ``medium``'s favourite).
   Values are per *side*: the bot plays for its partner and against the
   opponents, for points in the scoring variants.

The work is counted, not timed (``budget``): the same view, legal actions, rng
seed and machine speed give the same move on any machine; ``machine`` measures
the machine speed.

Modules: ``budget`` (what a budget buys), ``deals`` (sampling), ``inference``
and ``line_model`` (``medium``'s score on bit masks, to weigh deals and play
the model), ``line_playout`` (a deal played out on bit masks, and the value
of a hand's end), ``means`` (values over deals),
``model_search``, ``line_search``, ``playouts`` (the three searches),
``machine`` (the machine speed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.board import rules_of
from games.bots.hard import line_search, model_search, playouts
from games.bots.hard.budget import DEFAULT_BUDGET_MS, Search
from games.bots.interface import ThinkingBot
from games.bots.medium import ranked_plays
from games.engine import Action
from games.engine.actions import PLAY

MAX_CANDIDATES = 10

# The one table from variant to search; a decision whose candidates are not
# all plain plays (Spider's doubles, a draw or pass) goes to ``playouts``.
SEARCHES: dict[str, Search] = {
    "block": model_search.SEARCH,
    "all_fives": model_search.SEARCH,
    "fives_and_threes": model_search.SEARCH,
    "draw": line_search.SEARCH,
    "catalan": line_search.SEARCH,
    "cross": playouts.SEARCH,
    "grand_cross": playouts.SEARCH,
    "fives": playouts.SEARCH,
    "spider": playouts.SEARCH,
}


def candidates(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The moves worth searching, most promising first."""
    plays = ranked_plays(view, legal)
    if plays:
        return plays[:MAX_CANDIDATES]
    return list(legal)


def search_for(variant: str, cands: list[Action]) -> Search:
    """The search ``hard`` runs on these candidates in ``variant``."""
    if all(a.type == PLAY for a in cands):
        return SEARCHES[variant]
    return playouts.SEARCH


@dataclass(frozen=True)
class HardBot(ThinkingBot):
    """Determinized Monte Carlo search (see the module docstring)."""

    budget_ms: float = DEFAULT_BUDGET_MS
    machine_speed: float = 1.0  # the host against the calibration machine
    level: str = "hard"

    def think(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action:
        """The candidate with the best value over sampled deals."""
        cands = candidates(view, legal)
        if len(cands) == 1:
            return cands[0]
        search = search_for(rules_of(view).options.variant, cands)
        values = search.run(view, cands, rng, self.budget_ms, self.machine_speed)
        best = 0
        for i, v in enumerate(values):
            if v > values[best]:
                best = i
        return cands[best]


__all__ = [
    "DEFAULT_BUDGET_MS",
    "MAX_CANDIDATES",
    "SEARCHES",
    "HardBot",
    "candidates",
    "search_for",
]
