"""Keeping an offline game: the exact JSON round trip for the browser's IndexedDB
and the body of its upload (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import engine
from games.engine import Options
from games.offline.game import Game, levels_check, seed_check


def game_to_json(game: Game) -> dict[str, Any]:
    """The whole game as a JSON-ready dict (secrets included: the player's own)."""
    return {
        "version": 1,
        "variant": game.variant,
        "options": game.options.to_dict(),
        "levels": list(game.levels),
        "seed": game.seed,
        "state": engine.to_json(game.state),
        "log": [[seat, action] for seat, action in game.log],
        "declined": sorted([seq, seat] for seq, seat in game.declined),
    }


def game_from_json(d: Mapping[str, Any]) -> Game:
    """Read back a dict made by ``game_to_json`` (``ValueError`` if it is not one)."""
    try:
        if d.get("version") != 1:
            raise ValueError("not an offline game (version 1)")
        options = Options.from_dict(d["options"])
        return Game(
            variant=str(d["variant"]),
            options=options,
            levels=levels_check(d["levels"], options),
            seed=seed_check(d["seed"]),
            state=engine.from_json(d["state"]),
            log=tuple((int(seat), dict(action)) for seat, action in d["log"]),
            declined=frozenset((int(q), int(s)) for q, s in d["declined"]),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not an offline game: {exc}") from None


def upload_of(game: Game) -> dict[str, Any]:
    """The upload body of a game, but its ``id`` and ``finished_at``."""
    return {
        "variant": game.variant,
        "options": game.options.to_dict(),
        "levels": list(game.levels),
        "seed": game.seed,
        "actions": [[seat, action] for seat, action in game.log],
    }
