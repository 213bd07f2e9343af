"""Offline practice: a game against the computer with no server, on the same engine.

Pure like the engine and the bots (an import-linter contract keeps it so): the
browser runs this package in a Web Worker under Pyodide, and the server runs the
same code to replay a finished offline game when it is uploaded.

Public API
==========

``from games.offline import (Game, Replayed, OfflineError, new_game, act,
computer_turn, computer_move, seat_view, state_frame, game_to_json,
game_from_json, upload_of, replay, seed_new, chain_top, PERSON, SEED_HEX,
MAX_ACTIONS, MAX_HANDS)``

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

Modules: ``game`` (the deal, the checks, the moves), ``frames`` (what is shown),
``keeping`` (JSON for the browser and the upload), ``replaying`` (the server's check).
"""

from __future__ import annotations

from games.offline.frames import seat_view, state_frame
from games.offline.game import (
    CHECKED_LEVELS,
    MAX_ACTIONS,
    MAX_HANDS,
    PERSON,
    SEED_HEX,
    Game,
    OfflineError,
    act,
    chain_top,
    computer_move,
    computer_turn,
    new_game,
    seed_new,
)
from games.offline.keeping import game_from_json, game_to_json, upload_of
from games.offline.replaying import Replayed, replay

__all__ = [
    "CHECKED_LEVELS",
    "MAX_ACTIONS",
    "MAX_HANDS",
    "PERSON",
    "SEED_HEX",
    "Game",
    "OfflineError",
    "Replayed",
    "act",
    "chain_top",
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
