"""A finished table's hands and moves, every hand revealed, for the history page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import tile_pairs
from games.models import Seat, Table, TableEvent


@dataclass
class HandRecord:
    number: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    dealt: dict[int, list[list[int]]] = field(default_factory=dict)


def _describe(event: dict[str, Any]) -> str:
    kind: str = event.get("type", "")
    tile = event.get("tile")
    tile_txt = f"{tile[0]}-{tile[1]}" if isinstance(tile, list) else ""
    if kind == "played":
        pts = event.get("points") or 0
        return f"played {tile_txt} on {event.get('end')}" + (
            f" (end-sum worth {pts})" if pts else ""
        )
    if kind in {"drew", "drawn"}:
        return f"drew {tile_txt}".strip()
    if kind in {"passed", "pass"}:
        return "passed"
    if kind in {"claimed", "claim"}:
        return f"claimed {event.get('points')}"
    if kind == "muggins":
        return f"called Muggins for {event.get('points')}"
    return kind.replace("_", " ")


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
                    "who": (
                        who.user.username
                        if who and who.user
                        else f"Computer ({who.bot_level})"
                        if who
                        else "server"
                    ),
                    "actor": record.actor,
                    "text": _describe(event),
                }
            )
    if hands and hands[-1].result is None and table.state is not None:
        # The match ended mid-hand (a claim reached the target): reveal what was held.
        held = table.state.get("hands") or []
        hands[-1].result = {
            "reason": "match_over",
            "hands": [[list(p) for p in tile_pairs(mask)] for mask in held],
        }
    return hands


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
