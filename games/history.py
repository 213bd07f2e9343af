"""A finished table's hands and moves, every hand revealed, for the history page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine import ROOT, tile_pairs
from games.models import Seat, Table, TableEvent
from games.names import seat_display_name


@dataclass
class HandRecord:
    number: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    dealt: dict[int, list[list[int]]] = field(default_factory=dict)
    summary: str = ""
    revealed: list[tuple[str, str]] = field(default_factory=list)


DASH = "\u2013"
END_WORDS = {
    "left": _("on the left"),
    "right": _("on the right"),
    "n": _("on the north arm"),
    "e": _("on the east arm"),
    "s": _("on the south arm"),
    "w": _("on the west arm"),
}


# Why a table was abandoned (``table_cancel``'s reasons), after the seat's name.
ABANDONED = {
    "idle": _("ended: nobody played for a day"),
    "left": _("left, and the game was abandoned"),
    "staff": _("ended: the game was called off"),
}


def tile_words(tile: Any) -> str:
    """A tile as players write it: "5–5"."""
    return f"{tile[0]}{DASH}{tile[1]}" if isinstance(tile, list) else ""


def end_words(end: str) -> str:
    """Where a tile went, as a player says it ("to open", "on the left")."""
    if end == ROOT:
        return str(gettext("to open"))
    if end in END_WORDS:
        return str(END_WORDS[end])
    double = end.split(":")[0].replace("-", DASH)
    return str(gettext("beside the %(double)s") % {"double": double})


def event_words(event: dict[str, Any]) -> str:
    """One logged event in words ("played 5–3 on the left"), without its player."""
    kind: str = event.get("type", "")
    tile = tile_words(event.get("tile"))
    points = event.get("points")
    if kind == "played":
        text = gettext("played %(tile)s %(where)s") % {
            "tile": tile,
            "where": end_words(str(event.get("end"))),
        }
        if points:
            text += " " + gettext("(the ends make %(n)s)") % {"n": points}
        return str(text)
    if kind == "drew":
        return str(
            gettext("drew %(tile)s") % {"tile": tile} if tile else gettext("drew")
        )
    if kind == "abandoned":
        return str(ABANDONED.get(str(event.get("reason")), ABANDONED["staff"]))
    simple = {
        "passed": gettext("passed"),
        "claimed": gettext("claimed %(n)s") % {"n": points},
        "declined": gettext("did not claim %(n)s") % {"n": points},
        "muggins": gettext("called Muggins for %(n)s") % {"n": points},
        "scored": gettext("scored %(n)s") % {"n": points},
        "closed": gettext("closed a double"),
    }
    return str(simple.get(kind, kind.replace("_", " ")))


def table_hands(*, table: Table) -> list[HandRecord]:
    """Hands in order, each with its moves and its revealed result."""
    seats = {
        s.position: s for s in Seat.objects.filter(table=table).select_related("user")
    }
    hands: list[HandRecord] = []
    for record in TableEvent.objects.filter(table=table).order_by("seq"):
        for event in record.events:
            kind = event.get("type")
            if kind == "hand_started":
                hands.append(HandRecord(number=event.get("hand_no", len(hands) + 1)))
                continue
            if not hands:
                continue
            if kind == "hand_over":
                hands[-1].result = event.get("result")
                continue
            if kind in {"match_over"}:
                continue
            seat = event.get("seat")
            who = seats.get(seat)
            hands[-1].moves.append(
                {
                    "seq": record.seq,
                    "seat": seat,
                    "who": seat_display_name(who) if who else gettext("the table"),
                    "actor": record.actor,
                    "text": event_words(event),
                }
            )
    if hands and hands[-1].result is None and table.state is not None:
        # The match ended mid-hand (a claim reached the target): reveal what was held.
        held = table.state.get("hands") or []
        hands[-1].result = {
            "reason": "match_over",
            "hands": [[list(p) for p in tile_pairs(mask)] for mask in held],
        }
    names = {p: seat_display_name(s) for p, s in seats.items()}
    for hand in hands:
        _hand_words(hand, names)
    return hands


def hand_summary(result: dict[str, Any], names: dict[int, str]) -> str:
    """How a hand ended, in a sentence: "Ana went out.", "Blocked." """
    reason = result.get("reason")
    if reason == "out":
        out = names.get(int(result.get("out_seat") or 0), "")
        return str(gettext("%(name)s went out.") % {"name": out})
    if reason == "match_over":
        return str(gettext("The match ended during this hand."))
    return str(gettext("Blocked."))


def _hand_words(hand: HandRecord, names: dict[int, str]) -> None:
    """Fill the hand's summary line and its revealed tiles with seat names."""
    result = hand.result
    if not result:
        return
    hand.summary = hand_summary(result, names)
    for position, tiles in enumerate(result.get("hands") or []):
        shown = " ".join(tile_words(t) for t in tiles) or DASH
        hand.revealed.append((names.get(position, str(position + 1)), shown))


def table_log_export(*, table: Table) -> dict[str, Any]:
    """The whole move log as JSON (only for tables that have ended)."""
    seats = Seat.objects.filter(table=table).select_related("user")
    return {
        "table": table.pk,
        "mode": table.mode,
        "variant": table.variant,
        "options": table.options,
        "status": table.status,
        "started_at": table.started_at.isoformat() if table.started_at else None,
        "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        "seats": [
            {
                "position": s.position,
                "team": s.team,
                "player": s.user.username if s.user else None,
                "bot": s.bot_level or None,
                "program": s.program,
                "place": s.place,
                "score": s.score,
                "forfeited": s.forfeited,
            }
            for s in seats
        ],
        "log": [
            {
                "seq": e.seq,
                "seat": e.seat,
                "actor": e.actor,
                "action": e.action,
                "events": e.events,
                "at": e.created_at.isoformat(),
            }
            for e in TableEvent.objects.filter(table=table).order_by("seq")
        ],
    }
