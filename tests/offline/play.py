"""Whole offline matches played in CPython: the person's seat by a bot too."""

from __future__ import annotations

import random
from typing import Any

from games import bots, engine, offline

# A seed written out, so that a failing case can be replayed by hand.
SEED = "5eed" * 16


def person_action(game: offline.Game, rng: random.Random) -> dict[str, Any]:
    """What the person does: an easy bot's choice (any legal action)."""
    legal = engine.legal_actions(game.state, offline.PERSON)
    view = engine.view(game.state, offline.PERSON)
    choice = bots.choose("easy", view, legal, rng) or legal[0]
    return engine.action_to_dict(choice)


def play_out(
    game: offline.Game, *, limit: int = offline.MAX_ACTIONS, person_seed: int = 1
) -> offline.Game:
    """``game`` played to its end (or ``limit`` more actions)."""
    rng = random.Random(person_seed)
    start = game.seq
    while not engine.is_match_over(game.state) and game.seq - start < limit:
        due = offline.computer_turn(game)
        if due is not None:
            game = offline.computer_move(game, due)
        else:
            game = offline.act(game, offline.PERSON, person_action(game, rng))
    return game


def every_variant() -> list[tuple[str, dict[str, Any], list[str]]]:
    """Each variant at its smallest target, with one computer per level cycling,
    plus the four-seat partnership and the larger sets the Play page offers."""
    cases: list[tuple[str, dict[str, Any], list[str]]] = []
    cycle = ("medium", "easy", "medium", "easy")
    for variant, spec in engine.VARIANTS.items():
        seats = engine.options_for(variant).seats
        levels = [cycle[i] for i in range(seats - 1)]
        cases.append((variant, {"target": min(spec.targets)}, levels))
    cases.append(
        ("block", {"seats": 4, "partnership": True, "target": 50}, ["medium"] * 3)
    )
    cases.append(("draw", {"set_max": 9, "seats": 3, "target": 50}, ["easy", "medium"]))
    cases.append(("fives", {"seats": 4, "target": 50}, ["medium", "easy", "medium"]))
    return cases
