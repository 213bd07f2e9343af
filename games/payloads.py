"""What each connection of a table receives: its own view, numbered by ``seq``.

Built from the engine's ``view`` (which strips other seats' tiles and the stock) and
``events_for``; nothing here reads another seat's hand. A connection is sent
these frames whole or as patches of the one before (``games.patches``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import engine
from games.fairness import fair_public
from games.groups import WATCH_SUBJECT, seat_subject
from games.models import Seat, Table
from games.names import seat_display_name
from games.timers import bank_clock_end, bank_left_ms


def seats_public(
    seats: Sequence[Seat], *, table: Table | None = None
) -> list[dict[str, Any]]:
    """The seats as every connection sees them; with their ``table``, each seat's
    time bank left (``bank_ms``, None when the table has none).

    ``name`` is in the language active when the frame was built (the acting
    player's, or English in a worker), while one frame goes to every connection
    of a group: a computer seat therefore also carries its parts, ``bot`` (the
    level) and ``alias`` (a simulated player's generated name, a bot account's
    username with ``program``), so a client names it in its own language
    ("Computer 2 · easy", "Vera42 · computer", "Ada · BOT").
    """
    return [
        {
            "position": s.position,
            "team": s.team,
            "name": seat_display_name(s),
            "bot": s.bot_level or None,
            "alias": (s.name or None) if s.simulated or s.program else None,
            "simulated": s.simulated,
            "program": s.program,
            "connected": s.connected or s.is_bot,
            "away": s.away,
            "forfeited": s.forfeited,
            "place": s.place,
            "unpaid": s.unpaid or None,
            "bank_ms": bank_left_ms(table=table, seat=s)
            if table is not None and table.bank_seconds and table.clock_seconds
            else None,
        }
        for s in seats
    ]


def table_public(table: Table, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    """The table as every seat sees it; ``seats`` tell when a running turn clock
    ends and its seat's time bank starts (``timer.bank_from``)."""
    timer = None
    if table.timer and table.deadline is not None:
        bank_from = None
        if seats is not None and table.timer_seat is not None:
            seat = next((s for s in seats if s.position == table.timer_seat), None)
            end = bank_clock_end(table=table, seat=seat) if seat is not None else None
            if end is not None and end != table.deadline:
                bank_from = end.timestamp()
        timer = {
            "kind": table.timer,
            "seat": table.timer_seat,
            "deadline": table.deadline.timestamp(),
            "seconds": table.clock_seconds,
            "bank_from": bank_from,
        }
    return {
        "id": table.pk,
        "mode": table.mode,
        "status": table.status,
        "variant": table.variant,
        "clock_seconds": table.clock_seconds,
        "bank_seconds": table.bank_seconds if table.clock_seconds else None,
        "timer": timer,
        "fair": fair_public(table),
    }


# What the engine's view holds for the computer players and the review, not the
# page: the seat's copy of the state (the same facts again in engine form).
_NOT_SENT = ("public_state",)


def _view(state: engine.State, position: int | None) -> dict[str, Any]:
    view = engine.view(state, position)
    for key in _NOT_SENT:
        view.pop(key, None)
    return view


def state_frame(
    *,
    table: Table,
    seats: Sequence[Seat],
    state: engine.State | None,
    position: int | None,
    events: Sequence[dict[str, Any]] = (),
    public: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The full ``state`` frame for one seat (or a spectator, ``position=None``).

    ``public`` is ``(table_public(table), seats_public(seats))`` when the caller
    builds several frames of one moment."""
    table_part, seats_part = public or (
        table_public(table, seats),
        seats_public(seats, table=table),
    )
    return {
        "type": "state",
        "seq": table.seq,
        "table": table_part,
        "seats": seats_part,
        "you": position,
        "view": _view(state, position) if state is not None else None,
        "events": engine.events_for(list(events), position) if events else [],
    }


def spectator_frame(
    *,
    table: Table,
    seats: Sequence[Seat],
    state: engine.State | None,
    events: Sequence[dict[str, Any]] = (),
    public: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The ``state`` frame spectators receive: ``state`` is what they are shown,
    behind the game (``games.spectators``), and the turn clock is withheld (it would
    say whose turn it is now)."""
    table_part, seats_part = public or (
        table_public(table, seats),
        seats_public(seats, table=table),
    )
    return state_frame(
        table=table,
        seats=seats,
        state=state,
        position=None,
        events=events,
        public=({**table_part, "timer": None}, seats_part),
    )


def table_frames(
    *,
    table: Table,
    seats: Sequence[Seat],
    state: engine.State | None,
    events: Sequence[dict[str, Any]] = (),
    spectated: tuple[engine.State | None, Sequence[dict[str, Any]]] | None = None,
    watchers: bool = True,
) -> list[tuple[str, dict[str, Any]]]:
    """One ``state`` frame per seat (under its subject, ``games.groups``) and, if
    someone may be watching (``watchers``), one for spectators, for the outbox.

    ``spectated`` is the state spectators are shown with its events (the same as
    the players' when None)."""
    public = (
        table_public(table, seats),
        seats_public(seats, table=table),
    )
    out = [
        (
            seat_subject(seat.position),
            state_frame(
                table=table,
                seats=seats,
                state=state,
                position=seat.position,
                events=events,
                public=public,
            ),
        )
        for seat in seats
        if not seat.is_bot  # nobody ever connects to a computer player's seat
    ]
    if not watchers:
        return out
    shown, shown_events = spectated if spectated is not None else (state, events)
    spectators = spectator_frame(
        table=table, seats=seats, state=shown, events=shown_events, public=public
    )
    out.append((WATCH_SUBJECT, spectators))
    return out
