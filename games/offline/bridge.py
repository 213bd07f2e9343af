"""The browser's side of the offline game: what static/js/offline/worker.js calls.

The Web Worker runs this module under Pyodide. Each function takes and returns
JSON text, so no Python object crosses into JavaScript and nothing there needs
freeing. It holds the one game the page plays (``start`` or ``resume`` sets it).

A game answer is ``{"frame", "game", "computer", "over"}``: the state frame TableUI
draws, the whole game as JSON text (``game_to_json``; kept as text by the page,
because its engine state holds integers beyond 2**53, the hands as bit sets, which
a JavaScript number would round), the computer seat due to decide or null, and
whether the match is over. A refused move answers ``{"refused": "wait" |
"illegal" | "options", "reason"}`` (the reason in English, for logs: the page says
it in its own words).
"""

from __future__ import annotations

import json
import random
import statistics
import time

from games import bots, engine, offline
from games.offline import Game, OfflineError

WAIT = "Wait for the computer players."
# The lowest machine speed this host reads (games.bots.hard.machine floors its own
# at 0.1; a phone may be slower still, and hard must then search less).
SPEED_FLOOR = 0.02
SPEED_RUNS = 5

_game: Game | None = None
_speed: float | None = None


def _out(game: Game) -> str:
    global _game
    _game = game
    return json.dumps(
        {
            "frame": offline.state_frame(game),
            "game": json.dumps(offline.game_to_json(game)),
            "computer": offline.computer_turn(game),
            "over": engine.is_match_over(game.state),
        }
    )


def _refused(code: str, error: Exception) -> str:
    return json.dumps({"refused": code, "reason": str(error)})


def _current() -> Game:
    if _game is None:
        raise RuntimeError("no game: start or resume one first")
    return _game


def machine_speed() -> float:
    """hard's machine speed here, read once: ``games.bots.hard.machine``'s workload
    timed by the wall clock (Pyodide has no per-thread CPU clock; the worker is one
    thread that only computes), floored at ``SPEED_FLOOR`` instead of 0.1."""
    global _speed
    if _speed is None:
        from games.bots.hard import machine

        machine.workload()  # fills the caches; not timed
        runs = []
        for _ in range(SPEED_RUNS):
            began = time.perf_counter()
            machine.workload()
            runs.append((time.perf_counter() - began) * 1000)
        ms = max(statistics.median(runs), 1e-3)
        speed = min(machine.MAX_SPEED, max(SPEED_FLOOR, machine.REFERENCE_MS / ms))
        _speed = round(speed, 3)
    return _speed


def start(args: str) -> str:
    """``{"variant", "options", "levels", "seed"}``: a new game."""
    a = json.loads(args)
    try:
        game = offline.new_game(a["variant"], a["options"], a["levels"], a["seed"])
    except OfflineError as error:
        return _refused("options", error)
    return _out(game)


def resume(args: str) -> str:
    """``{"game": <the answer's game text>}``: go on with a kept game."""
    return _out(offline.game_from_json(json.loads(json.loads(args)["game"])))


def act(args: str) -> str:
    """``{"seat", "action"}``: a move of the person."""
    a = json.loads(args)
    try:
        return _out(offline.act(_current(), a["seat"], a["action"]))
    except OfflineError as error:
        return _refused("wait" if error.message.template == WAIT else "illegal", error)


def computer(args: str) -> str:
    """The move of the computer due now, whichever seat the page asked for (a move
    the person made meanwhile may have changed who that is); the game as it is
    when none is due."""
    game = _current()
    seat = offline.computer_turn(game)
    if seat is None:
        return _out(game)
    speed = machine_speed() if game.level_of(seat) == "hard" else 1.0
    return _out(offline.computer_move(game, seat, machine_speed=speed))


def speed(args: str) -> str:
    return json.dumps(machine_speed())


def states(args: str) -> str:
    """The engine state after each action of a log, as JSON text inside JSON (the
    browser test compares it with CPython's)."""
    a = json.loads(args)
    game = offline.new_game(a["variant"], a["options"], a["levels"], a["seed"])
    out = [engine.to_json(game.state)]
    for seat, action in a["actions"]:
        game = offline.act(game, seat, action)
        out.append(engine.to_json(game.state))
    return json.dumps(json.dumps(out))


def timings(args: str) -> str:
    """Milliseconds each ``{"state", "seat", "level", "rng"}`` position's decision
    takes here (bench/offline.py)."""
    a = json.loads(args)
    out: list[float] = []
    for item in a["positions"]:
        state = engine.from_json(item["state"])
        seat = item["seat"]
        level = item["level"]
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        rng = random.Random(item.get("rng", 0))
        machine = machine_speed() if level == "hard" else 1.0
        began = time.perf_counter()
        bots.choose(level, view, legal, rng, machine_speed=machine)
        out.append((time.perf_counter() - began) * 1000)
    return json.dumps(out)


def _reset() -> None:
    """Forget the game (tests)."""
    global _game
    _game = None


__all__ = [
    "act",
    "computer",
    "machine_speed",
    "resume",
    "speed",
    "start",
    "states",
    "timings",
]
