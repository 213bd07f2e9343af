"""Spectators: what they are shown, how late, how many there are, and no frame for
them when nobody watches.

**The delay.** A spectator must not be able to help a player (by telling them, on
another channel, what was just played), so spectators see a table behind the game:

* one move behind on every table: a move reaches spectators when the next one is
  made (the end of a hand and the end of the match at once, as nothing is left to
  help with);
* a whole hand behind on stake tables, where coins ride on each hand: spectators
  see the last finished hand (or the deal of the first) until the hand in play
  ends.

The state spectators are shown is kept on the table row (``Table.watch_state``,
written in the same UPDATE as the move), so every process and a spectator who
connects mid-hand see the same thing, and nothing is sent to them early. The turn
clock is withheld from spectators too: it would say whose turn it is now.

**Nothing new, nothing sent.** A move that leaves what spectators are shown as it
was (each move of a stake table's hand in play) reaches no spectator socket: the
table consumer (``games.consumers``) drops a spectator's state whose patch would be
empty, and numbers their states per connection rather than by the table's ``seq``,
which counts the moves.

**Nobody watching, nothing sent.** Each spectator socket pushes the table's
``watched_until`` ``WATCH_SECONDS`` ahead when it connects (before it reads the state,
and behind any move holding the row, so no move falls between) and at each renewal;
a move publishes the spectators' frame only while it is ahead. It lapses on its own
when the last spectator leaves or their server dies.

**The count.** Each spectator's open sockets are counted per table in
``realtime.socket_sets`` (Redis, or this process's memory on the embedded default),
with a set of the people watching; the players and the spectators are told how many
people watch (``{"type": "watching", "count": n}``) when it changes and on connect.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import engine
from games.engine.state import PHASE_HAND_OVER, PHASE_MATCH_OVER
from games.models import Table
from realtime.socket_sets import (
    socket_set_add,
    socket_set_count,
    socket_set_remove,
    socket_set_renew,
)

# Longer than a socket's renewal period (``realtime.sockets.SLOT_RENEW_SECONDS``),
# so a live spectator keeps it ahead.
WATCH_SECONDS = 120


def watched(table: Table) -> bool:
    """Whether someone may be watching ``table`` now."""
    return table.watched_until is not None and table.watched_until > timezone.now()


def watched_mark(table_id: int) -> None:
    """A spectator socket is open (or renewed): publish their frames from now on."""
    Table.objects.filter(pk=table_id).update(
        watched_until=timezone.now() + timedelta(seconds=WATCH_SECONDS)
    )


def hand_delayed(table: Table) -> bool:
    """Whether spectators of ``table`` see it a whole hand behind."""
    return bool(table.mode == Table.Mode.STAKE)


def watch_state_next(
    table: Table, before: dict[str, Any] | None, after: dict[str, Any]
) -> dict[str, Any]:
    """The state spectators are shown once ``after`` replaces ``before`` (the engine
    states as stored, ``engine.to_json``; ``before`` None on the first deal): one
    of the three, or ``table.watch_state`` itself when it stays."""
    if after["phase"] == PHASE_MATCH_OVER or before is None:
        return after
    if hand_delayed(table):
        if after["phase"] == PHASE_HAND_OVER:
            return after
        shown: dict[str, Any] = (
            table.watch_state if table.watch_state is not None else before
        )
        return shown
    return before


def watch_state_of(table: Table) -> engine.State | None:
    """The state spectators are shown now (the current one before the first move)."""
    shown = table.watch_state if table.watch_state is not None else table.state
    return engine.from_json(shown) if shown is not None else None


def _people(table_id: int) -> str:
    return f"watch:{table_id}"


def _sockets(table_id: int, user_id: int) -> str:
    return f"watch:{table_id}:user:{user_id}"


def spectator_join(*, table_id: int, user_id: int, socket: str) -> tuple[bool, int]:
    """Count a spectator's socket: (whether the count of people changed, the count)."""
    first = socket_set_add(key=_sockets(table_id, user_id), socket=socket) == 1
    return first, socket_set_add(key=_people(table_id), socket=str(user_id))


def spectator_leave(*, table_id: int, user_id: int, socket: str) -> tuple[bool, int]:
    """Forget a spectator's socket: (whether the count of people changed, the count)."""
    if socket_set_remove(key=_sockets(table_id, user_id), socket=socket):
        return False, socket_set_count(key=_people(table_id))
    return True, socket_set_remove(key=_people(table_id), socket=str(user_id))


def spectator_renew(*, table_id: int, user_id: int, socket: str) -> None:
    """Keep a live spectator socket, and its person, counted."""
    socket_set_renew(key=_sockets(table_id, user_id), socket=socket)
    socket_set_add(key=_people(table_id), socket=str(user_id))


def spectators_count(table_id: int) -> int:
    """How many people watch the table now."""
    return socket_set_count(key=_people(table_id))
