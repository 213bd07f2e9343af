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
``(seat, wire dict)``), ``seq`` (``len(log)``) and ``events`` (the event dicts of
the last transition).

``act(game, seat, action) -> Game``: ``action`` is a wire dict (or an
``Action``); raises ``OfflineError`` (with the engine's ``IllegalAction``
message) and leaves ``game`` as it was.

``computer_turn(game) -> int | None``: the computer seat that decides next: the
seat to move if it is a computer's, else a ``medium``/``hard`` opponent that may
call Muggins now; ``None`` when the person decides (in "hand_over" too: as at a
practice table, the person presses "Next hand") or the match is over.

``computer_move(game, seat, *, machine_speed=1.0) -> Game``: that seat's bot
decides from its own view (``random.Random(f"{seed}:{seq}:{seat}")``, as a live
table seeds it) and the decision is applied. A bot that lets a Muggins window pass
is recorded in ``game.declined`` so ``computer_turn`` does not ask it again at the
same ``seq``.

``seat_view(game, seat) -> dict``: ``games.engine.view`` for that seat.
``state_frame(game, *, events=None) -> dict``: the ``state`` frame the server's
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
played), ``actions`` (how many) and ``state`` (the final engine state).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, Options, State
from games.engine.messages import Text

SEED_HEX = 64
MAX_ACTIONS = 20_000
MAX_HANDS = 1_000


class OfflineError(ValueError):
    """A refused offline game or action; ``message`` is the ``Text`` a player reads."""

    def __init__(self, message: Text) -> None:
        self.message = message
        super().__init__(message.render())


@dataclass(frozen=True)
class Game:
    variant: str
    options: Options
    levels: tuple[str, ...]
    seed: str
    state: State
    log: tuple[tuple[int, dict[str, Any]], ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    declined: frozenset[int] = field(default_factory=frozenset)

    @property
    def seq(self) -> int:
        return len(self.log)


@dataclass(frozen=True)
class Replayed:
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


def seed_new() -> str:
    """A fresh deal secret, as ``SEED_HEX`` hex digits."""
    return secrets.token_bytes(SEED_HEX // 2).hex()


def new_game(
    variant: str, options: Mapping[str, Any], levels: Sequence[str], seed: str
) -> Game:
    raise NotImplementedError


def act(game: Game, seat: int, action: Mapping[str, Any] | Action) -> Game:
    raise NotImplementedError


def computer_turn(game: Game) -> int | None:
    raise NotImplementedError


def computer_move(game: Game, seat: int, *, machine_speed: float = 1.0) -> Game:
    raise NotImplementedError


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    raise NotImplementedError


def state_frame(
    game: Game, *, events: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    raise NotImplementedError


def game_to_json(game: Game) -> dict[str, Any]:
    raise NotImplementedError


def game_from_json(d: Mapping[str, Any]) -> Game:
    raise NotImplementedError


def upload_of(game: Game) -> dict[str, Any]:
    raise NotImplementedError


def replay(data: Mapping[str, Any]) -> Replayed:
    raise NotImplementedError


__all__ = [
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
