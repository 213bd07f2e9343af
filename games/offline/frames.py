"""What the offline table shows: a seat's view and the state frame TableUI draws
(see the package's docstring)."""

from __future__ import annotations

from typing import Any

from games import engine
from games.offline.game import PERSON, Game, seat_check


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """The engine's view of ``seat``."""
    return engine.view(game.state, seat_check(game, seat))


def _seats_public(game: Game) -> list[dict[str, Any]]:
    partnership = game.options.partnership
    return [
        {
            "position": seat,
            "team": seat % 2 if partnership else None,
            "name": None,
            "bot": game.level_of(seat),
            "alias": None,
            "simulated": False,
            "connected": True,
            "away": False,
            "forfeited": False,
            "place": None,
            "unpaid": None,
        }
        for seat in range(game.options.seats)
    ]


def state_frame(game: Game) -> dict[str, Any]:
    """The ``state`` frame a practice table sends its person (games.payloads)."""
    view = engine.view(game.state, PERSON)
    view.pop("public_state", None)
    over = engine.is_match_over(game.state)
    return {
        "type": "state",
        "seq": game.seq,
        "table": {
            "id": None,
            "mode": "practice",
            "status": "finished" if over else "playing",
            "variant": game.variant,
            "clock_seconds": None,
            "timer": None,
            "fair": None,
        },
        "seats": _seats_public(game),
        "you": PERSON,
        "view": view,
        "events": engine.events_for(game.state.events, PERSON),
    }
