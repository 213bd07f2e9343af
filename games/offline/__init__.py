"""Offline practice: a game against the computer with no server, on the same engine.

Pure like the engine and the bots (an import-linter contract keeps it so): the
browser runs this package in a Web Worker under Pyodide, and the server runs the
same code to replay a finished offline game when it is uploaded.

Public API
==========

``from games.offline import (Game, Replayed, OfflineError, new_game, act,
computer_turn, computer_move, seat_view, state_frame, game_to_json,
game_from_json, upload_of, replay, seed_new, SEED_HEX, MAX_ACTIONS, MAX_HANDS)``

The game
--------
The person sits in seat 0 and computer players in seats 1..n-1, as at a practice
table (``levels[i]`` is the level of seat ``i + 1``).

``new_game(variant, options, levels, seed) -> Game``: ``options`` are the overrides
of ``options_for`` (or a whole ``Options.to_dict()``; its ``variant`` must then be
``variant``), ``levels`` one of ``games.bots.LEVELS`` per computer seat, ``seed``
the deal's secret: ``SEED_HEX`` (64) lowercase hex digits, 32 bytes that the
browser draws with ``crypto.getRandomValues`` (``seed_new`` draws them in Python).

The deal follows RULES.md §1.1 with what a game without a server has: the seed is
the top ``h_L`` of the hash chain, the table id is 0 and every seat's client seed
is the empty string (the browser that draws the secret has nothing to add to it).
A match longer than one chain (``CHAIN_LENGTH`` hands) continues on chain ``j``
whose top is ``HMAC-SHA-256(h_L, "offline-chain|<j>")``. The server recomputes
every deal from the uploaded seed. There is no commitment to check: the player's
own browser holds the secret, so offline games are practice (they pay nothing and
count only in the practice record, marked "offline").

``Game`` is an immutable value: ``variant``, ``options`` (``Options``), ``levels``,
``seed``, ``state`` (the engine ``State``) and ``log`` (every action so far, as
``(seat, wire dict)``), ``declined`` (see ``computer_move``) and ``seq``
(``len(log)``). The events of the last transition are ``game.state.events``.

``act(game, seat, action) -> Game``: ``action`` is a wire dict (or an
``Action``); only the seat that decides now may act (``computer_turn``, else the
person); raises ``OfflineError`` (with the engine's ``IllegalAction`` message for
an illegal move) and leaves ``game`` as it was.

``computer_turn(game) -> int | None``: the computer seat that decides next: the
seat to move if it is a computer's, else a ``medium``/``hard`` opponent that may
call Muggins now; ``None`` when the person decides (in "hand_over" too: as at a
practice table, the person presses "Next hand") or the match is over.

``computer_move(game, seat, *, machine_speed=1.0) -> Game``: that seat's bot
decides from its own view (``random.Random(f"{seed}:{seq}:{seat}")``, as a live
table seeds it) and the decision is applied. A bot that lets a Muggins window pass
is recorded in ``game.declined`` so ``computer_turn`` does not ask it again at the
same ``seq``.

``seat_view(game, seat) -> dict``: ``games.engine.view`` for that seat (the bots'
``public_state`` included).
``state_frame(game) -> dict``: the ``state`` frame the server's
``games.payloads.state_frame`` sends to seat 0 of a practice table, for TableUI
(``table``: id None, mode "practice", no clock, no timer, ``fair`` None; ``seats``
with ``bot`` levels and ``name`` None: the page names them in its language).

``game_to_json(game) -> dict`` / ``game_from_json(d) -> Game``: exact round trip,
for the browser's IndexedDB (the engine state is kept whole, so a resume does not
replay the log).

``upload_of(game) -> dict``: the body of ``POST /play/offline/results/`` without
``id`` and ``finished_at`` (the page adds them): ``variant``, ``options`` (the
whole ``Options.to_dict()``), ``levels``, ``seed``, ``actions`` (``[[seat,
action dict], ...]``).

The server's replay
-------------------
``replay(data) -> Replayed``: ``data`` is the decoded upload (the server checks
the byte size, the ``id``, the player and duplicates). It checks every field's
type and range, at most ``MAX_ACTIONS`` actions and ``MAX_HANDS`` hands, plays
every action through the engine (each must be legal for its seat at that point),
checks that each ``easy``/``medium`` computer's move is the one its bot makes
(they are deterministic and cheap; ``hard`` depends on the browser's machine
speed, so only its legality is checked) and that the match is over at the last
action, and nothing after it. Anything else raises ``OfflineError`` whose
``message`` is a ``Text`` for the player (``message.render(gettext)``).

``Replayed``: ``variant``, ``options``, ``levels``, ``seed``, ``winners`` (seats),
``won`` (whether seat 0 is among them), ``scores`` (per side), ``hands`` (hands
played), ``actions`` (how many), ``state`` (the final engine state), ``dealt``
(the events of the first deal) and ``steps`` (each action as ``(seat, action
dict, events it made)``: the move log of a live practice table, without playing
the game again).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games import bots, engine
from games.engine import Action, Options, State
from games.engine.fair import FairDeal
from games.engine.messages import Text, gettext_noop, text

SEED_HEX = 64
# A whole match stays far below these (a long Draw match on the double-twelve set
# to 250 is a few thousand actions); a log beyond them is refused unread.
MAX_ACTIONS = 20_000
MAX_HANDS = 1_000
# The levels whose move ``replay`` recomputes: deterministic on any machine and
# cheap. ``hard`` searches as far as the browser's machine speed allows.
CHECKED_LEVELS = ("easy", "medium")
# Computer players that call Muggins out of turn (``easy`` never does), as at a
# live table (games.timers).
MUGGINS_CALLERS = ("medium", "hard")
PERSON = 0
TABLE_ID = 0

_SEED = re.compile(r"[0-9a-f]{64}")


class OfflineError(ValueError):
    """A refused offline game or action; ``message`` is the ``Text`` a player reads."""

    def __init__(self, message: Text) -> None:
        self.message = message
        super().__init__(message.render())


def _refuse(template: str, **params: Any) -> OfflineError:
    return OfflineError(text(template, **params))


@dataclass(frozen=True)
class Game:
    """One offline match at one moment (see the module's docstring)."""

    variant: str
    options: Options
    levels: tuple[str, ...]
    seed: str
    state: State
    log: tuple[tuple[int, dict[str, Any]], ...] = ()
    # Seats that let the Muggins window open at ``seq`` pass: (seq, seat) pairs.
    declined: frozenset[tuple[int, int]] = field(default_factory=frozenset)

    @property
    def seq(self) -> int:
        return len(self.log)

    def level_of(self, seat: int) -> str | None:
        """The computer level of ``seat``; None for the person's seat."""
        return None if seat == PERSON else self.levels[seat - 1]


@dataclass(frozen=True)
class Replayed:
    """A valid uploaded game, replayed to its end."""

    variant: str
    options: Options
    levels: tuple[str, ...]
    seed: str
    winners: tuple[int, ...]
    won: bool
    scores: tuple[int, ...]
    hands: int
    actions: int
    state: State
    # The events of the first deal, then each action with the events it made: the
    # table's log as a live practice table writes it.
    dealt: list[dict[str, Any]]
    steps: tuple[tuple[int, dict[str, Any], list[dict[str, Any]]], ...]


# ------------------------------------------------------------------ the deal


def seed_new() -> str:
    """A fresh deal secret, as ``SEED_HEX`` hex digits."""
    return secrets.token_bytes(SEED_HEX // 2).hex()


def chain_top(seed: str, chain: int) -> bytes:
    """The secret top of hash chain ``chain`` (0-based) of an offline game."""
    top = bytes.fromhex(seed)
    if chain == 0:
        return top
    return hmac.new(
        top, f"offline-chain|{chain}".encode("ascii"), hashlib.sha256
    ).digest()


def fair_of(seed: str, seats: int) -> FairDeal:
    """The fair deal of an offline game: table 0, empty client seeds."""
    return FairDeal(
        table_id=TABLE_ID, chains=(chain_top(seed, 0),), seeds=("",) * seats
    )


def _chain_ahead(state: State, seed: str) -> State:
    """``state`` with the next hash chain once the next hand would need it."""
    assert state.fair is not None
    if state.fair.has_key(state.hand_no + 1):
        return state
    return engine.fair_extend(state, chain_top(seed, len(state.fair.chains)))


# ------------------------------------------------------------------ checks


def _seed_check(seed: Any) -> str:
    if not isinstance(seed, str) or not _SEED.fullmatch(seed):
        raise _refuse(gettext_noop("The game's seed is not valid."))
    return seed


def _options_check(variant: Any, options: Any) -> Options:
    if not isinstance(variant, str) or variant not in engine.VARIANTS:
        raise _refuse(gettext_noop("There is no such variant."))
    if not isinstance(options, Mapping):
        raise _refuse(gettext_noop("The game's options are not valid."))
    rest = dict(options)
    if rest.pop("variant", variant) != variant:
        raise _refuse(gettext_noop("The game's options are not valid."))
    try:
        return engine.options_for(variant, **rest)
    except engine.InvalidOptions as exc:
        raise OfflineError(exc.text) from None
    except TypeError:  # an option the variant does not have
        raise _refuse(gettext_noop("The game's options are not valid.")) from None


def _levels_check(levels: Any, options: Options) -> tuple[str, ...]:
    if (
        isinstance(levels, (str, bytes))
        or not isinstance(levels, Sequence)
        or len(levels) != options.seats - 1
        or any(level not in bots.LEVELS for level in levels)
    ):
        raise _refuse(
            gettext_noop(
                "Choose a level (easy, medium or hard) for each computer player."
            )
        )
    return tuple(levels)


# ------------------------------------------------------------------ the game


def new_game(
    variant: str, options: Mapping[str, Any], levels: Sequence[str], seed: str
) -> Game:
    """A new offline match, hand 1 dealt (see the module's docstring)."""
    opts = _options_check(variant, options)
    seat_levels = _levels_check(levels, opts)
    secret = _seed_check(seed)
    state = engine.new_match(opts, 0, fair=fair_of(secret, opts.seats))
    return Game(
        variant=variant,
        options=opts,
        levels=seat_levels,
        seed=secret,
        state=_chain_ahead(state, secret),
    )


def _apply(game: Game, seat: int, action: Action) -> Game:
    state = _chain_ahead(engine.apply(game.state, seat, action), game.seed)
    entry = (seat, engine.action_to_dict(action))
    return replace(game, state=state, log=(*game.log, entry))


def _seat_check(game: Game, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise _refuse(gettext_noop("There is no such seat."))
    if not 0 <= seat < game.options.seats:
        raise _refuse(gettext_noop("There is no such seat."))
    return seat


def act(game: Game, seat: int, action: Mapping[str, Any] | Action) -> Game:
    """``game`` after ``seat`` does ``action`` (a wire dict or an ``Action``).

    Only the seat that decides now may act (``computer_turn``, else the person's):
    while a computer player is to decide, the person waits for it, except for a
    ``hard`` computer's Muggins call out of turn, which the person's move may
    forestall (as at a live table, where that call comes after the computer's
    delay); ``replay`` allows the same."""
    _seat_check(game, seat)
    game, due = _expected(game, seat)
    if seat != due:
        raise _refuse(gettext_noop("Wait for the computer players."))
    try:
        parsed = engine.parse_action(
            dict(action) if isinstance(action, Mapping) else action
        )
        return _apply(game, seat, parsed)
    except engine.IllegalAction as exc:
        raise OfflineError(exc.message) from None


def _muggins_caller(game: Game, seat: int) -> bool:
    """Whether computer ``seat`` may call Muggins now and has not let it pass."""
    return (
        game.level_of(seat) in MUGGINS_CALLERS
        and (game.seq, seat) not in game.declined
        and engine.current_seat(game.state) != seat
        and Action.muggins() in engine.legal_actions(game.state, seat)
    )


def computer_turn(game: Game) -> int | None:
    """The computer seat that decides next, or None (the person's turn, or over)."""
    state = game.state
    if state.phase in ("hand_over", "match_over"):
        return None
    for seat in range(1, game.options.seats):
        if _muggins_caller(game, seat):
            return seat
    current = engine.current_seat(state)
    if current is None or current == PERSON:
        return None
    return current


def _decide(game: Game, seat: int, machine_speed: float) -> Action | None:
    """What the bot of computer ``seat`` does now; None: lets a window pass."""
    level = game.level_of(seat)
    assert level is not None
    state = game.state
    legal = engine.legal_actions(state, seat)
    if not legal:
        return None
    rng = random.Random(f"{game.seed}:{game.seq}:{seat}")
    speed = machine_speed if level == "hard" else 1.0
    choice = bots.choose(
        level, engine.view(state, seat), legal, rng, machine_speed=speed
    )
    if choice is None and engine.current_seat(state) != seat:
        return None
    return choice if choice in legal else legal[0]


def computer_move(game: Game, seat: int, *, machine_speed: float = 1.0) -> Game:
    """``game`` after computer ``seat``'s bot decides (see the module's docstring);
    only the seat ``computer_turn`` names may."""
    if _seat_check(game, seat) == PERSON:
        raise _refuse(gettext_noop("That seat is not a computer player's."))
    if computer_turn(game) != seat:
        raise _refuse(gettext_noop("Wait for the computer players."))
    choice = _decide(game, seat, machine_speed)
    if choice is None:
        return replace(game, declined=game.declined | {(game.seq, seat)})
    return _apply(game, seat, choice)


# ------------------------------------------------------------------ what is shown


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """The engine's view of ``seat``."""
    return engine.view(game.state, _seat_check(game, seat))


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


# ------------------------------------------------------------------ keeping it


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
            levels=_levels_check(d["levels"], options),
            seed=_seed_check(d["seed"]),
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


# ------------------------------------------------------------------ the replay


def _entry_check(game: Game, entry: Any) -> tuple[int, Action]:
    if (
        isinstance(entry, (str, bytes))
        or not isinstance(entry, Sequence)
        or len(entry) != 2
    ):
        raise _refuse(gettext_noop("A move of the game is not valid."))
    seat = _seat_check(game, entry[0])
    try:
        return seat, engine.parse_action(entry[1])
    except engine.IllegalAction:
        raise _refuse(gettext_noop("A move of the game is not valid.")) from None


def _expected(game: Game, seat: int) -> tuple[Game, int]:
    """The seat that had to decide next, with the Muggins windows that its
    computer opponents let pass (by not calling before ``seat`` acted) recorded:
    a checked level only where its bot lets it pass, ``hard`` always."""
    while True:
        due = computer_turn(game)
        if due is None:
            return game, PERSON
        if due == seat or engine.current_seat(game.state) == due:
            return game, due
        if game.level_of(due) in CHECKED_LEVELS and _decide(game, due, 1.0) is not None:
            return game, due
        game = replace(game, declined=game.declined | {(game.seq, due)})


def replay(data: Mapping[str, Any]) -> Replayed:
    """Check a whole uploaded game and give its result (see the module's docstring)."""
    if not isinstance(data, Mapping):
        raise _refuse(gettext_noop("The game could not be read."))
    actions = data.get("actions")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
        raise _refuse(gettext_noop("The game's moves could not be read."))
    if len(actions) > MAX_ACTIONS:
        raise _refuse(
            gettext_noop("The game is too long: at most %(count)d moves."),
            count=MAX_ACTIONS,
        )
    game = new_game(
        data.get("variant"),  # type: ignore[arg-type]  # checked by new_game
        data.get("options", {}),
        data.get("levels"),  # type: ignore[arg-type]
        data.get("seed"),  # type: ignore[arg-type]
    )
    dealt = list(game.state.events)
    steps: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []
    for number, entry in enumerate(actions, start=1):
        if engine.is_match_over(game.state):
            raise _refuse(gettext_noop("The game goes on after its end."))
        seat, action = _entry_check(game, entry)
        game, due = _expected(game, seat)
        if seat != due:
            raise _refuse(
                gettext_noop("Move %(number)d was not that player's to make."),
                number=number,
            )
        level = game.level_of(seat)
        if level in CHECKED_LEVELS and _decide(game, seat, 1.0) != action:
            raise _refuse(
                gettext_noop("Move %(number)d is not the computer player's."),
                number=number,
            )
        try:
            game = _apply(game, seat, action)
        except engine.IllegalAction as exc:
            raise _refuse(
                gettext_noop("Move %(number)d is not allowed: %(reason)s"),
                number=number,
                reason=exc.message,
            ) from None
        steps.append((seat, game.log[-1][1], list(game.state.events)))
        if game.state.hand_no > MAX_HANDS:
            raise _refuse(
                gettext_noop("The game is too long: at most %(count)d hands."),
                count=MAX_HANDS,
            )
    state = game.state
    if not engine.is_match_over(state):
        raise _refuse(gettext_noop("The game is not finished."))
    return Replayed(
        variant=game.variant,
        options=game.options,
        levels=game.levels,
        seed=game.seed,
        winners=tuple(state.winners),
        won=PERSON in state.winners,
        scores=tuple(state.scores),
        hands=state.hand_no,
        actions=game.seq,
        state=state,
        dealt=dealt,
        steps=tuple(steps),
    )


__all__ = [
    "CHECKED_LEVELS",
    "MAX_ACTIONS",
    "MAX_HANDS",
    "SEED_HEX",
    "Game",
    "OfflineError",
    "Replayed",
    "act",
    "computer_move",
    "computer_turn",
    "game_from_json",
    "game_to_json",
    "new_game",
    "replay",
    "seat_view",
    "seed_new",
    "state_frame",
    "upload_of",
]
