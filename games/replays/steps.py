"""The replay of an ended table as the viewer walks it: one step per logged move,
each with the board as a spectator saw it and every hand face up.

Built by replaying the table's deal and log through the engine (``games.replay``),
so a replay shows exactly what happened; the fair deal's proof (``fair.json``) rides
along so the viewer checks each hand's deal without another request.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games import engine
from games.fairness import table_fair_json
from games.history import event_words, hand_summary
from games.models import Seat, Table, TableEvent
from games.names import seat_display_name, table_title, variant_title
from games.payloads import seats_public
from games.replay import replay_start, replay_walk

# The logged events a step names, in the words of the history page.
MOVES = frozenset(
    {"played", "drew", "passed", "claimed", "declined", "muggins", "scored", "closed"}
)
# A spectator's view without what a replay never uses: no seat acts, and the bots'
# sampling state is not for people.
_DROPPED = ("public_state", "legal")


def _view(state: engine.State) -> dict[str, Any]:
    view = engine.view(state, None)
    for key in _DROPPED:
        view.pop(key, None)
    return view


def _words(record: TableEvent, state: engine.State, names: dict[int, str]) -> str:
    parts = [event_words(e) for e in record.events if e.get("type") in MOVES]
    for event in record.events:
        kind = event.get("type")
        if kind == "hand_started":
            parts.append(
                gettext("Hand %(number)s is dealt.") % {"number": event.get("hand_no")}
            )
        elif kind == "hand_over" and state.hand_result is not None:
            parts.append(hand_summary(state.hand_result, names))
        elif kind == "abandoned":
            parts.append(event_words(event))
    return " ".join(str(p) for p in parts)


def _step(
    state: engine.State,
    *,
    seq: int,
    seat: int | None,
    who: str,
    actor: str,
    text: str,
) -> dict[str, Any]:
    return {
        "seq": seq,
        "hand": state.hand_no,
        "seat": seat,
        "who": who,
        "actor": actor,
        "text": text,
        "view": _view(state),
        **engine.face_up(state),
    }


def replay_data(*, table: Table) -> dict[str, Any]:
    """What the replay viewer reads (``/tables/<id>/replay.json``): the table, its
    seats, the fair deal's proof and every step from the first deal to the end."""
    seats = list(Seat.objects.filter(table=table).select_related("user"))
    names = {s.position: seat_display_name(s) for s in seats}
    spec = engine.VARIANTS.get(table.variant)
    steps: list[dict[str, Any]] = []
    start = replay_start(table)
    if start is not None:
        steps.append(
            _step(
                start,
                seq=0,
                seat=None,
                who="",
                actor="server",
                text=gettext("Hand %(number)s is dealt.") % {"number": 1},
            )
        )
        for record, state in replay_walk(table, start):
            if record.action is None and not any(
                e.get("type") == "abandoned" for e in record.events
            ):
                continue  # a seat came, went or was away: the board did not change
            if record.action is not None and record.action.get("type") == "next_hand":
                seat = None  # whoever pressed "Next hand", the table dealt it
            else:
                seat = record.seat
            steps.append(
                _step(
                    state,
                    seq=record.seq,
                    seat=seat,
                    who=names.get(seat, "") if seat is not None else "",
                    actor=record.actor,
                    text=_words(record, state, names),
                )
            )
    hands: list[dict[str, Any]] = []
    for index, step in enumerate(steps):
        if not hands or hands[-1]["hand"] != step["hand"]:
            hands.append({"hand": step["hand"], "step": index})
    return {
        "table": {
            "id": table.pk,
            "mode": table.mode,
            "status": table.status,
            "variant": table.variant,
            "title": table_title(table),
            "variant_title": variant_title(table.variant),
            "stock_drawn": spec is not None and spec.stock != engine.STOCK_NONE,
            "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        },
        "seats": seats_public(seats),
        "fair": table_fair_json(table=table),
        "hands": hands,
        "steps": steps,
    }
