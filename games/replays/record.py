"""A table's text record (``/tables/<id>/record.txt``) in the notation of
docs/notation.md: a header of tags, then per hand its deal face up, one line per
move and a result line. Plain ASCII, in no player's language, so a program or a
person anywhere reads it the same way."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Seat, Table
from games.replay import replay_start, replay_walk

# End ids as the table page names its ends (docs/notation.md, "Ends").
_ENDS = {
    engine.ROOT: "open",
    "left": "left",
    "right": "right",
    "n": "north",
    "e": "east",
    "s": "south",
    "w": "west",
}
_SIDES = {"l": "left", "r": "right"}


def _tile(tile: Any) -> str:
    return f"{tile[0]}-{tile[1]}"


def _end(end: str) -> str:
    if end in _ENDS:
        return _ENDS[end]
    double, _, side = end.partition(":")
    return f"{double}:{_SIDES.get(side, side)}"


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def _seat_name(seat: Seat) -> str:
    if seat.program:
        return f"{seat.name} (BOT)"
    if seat.user is not None:
        return str(seat.user.get_username())
    if seat.name:
        return f"{seat.name} (computer {seat.bot_level})"
    return f"computer {seat.bot_level}"


def _seat(position: int | None) -> str:
    return f"S{position + 1}" if position is not None else "table"


def _move(event: dict[str, Any]) -> str | None:
    """One logged event as a move (None for what is not one)."""
    kind = event.get("type")
    points = event.get("points")
    if kind == "played":
        text = f"play {_tile(event['tile'])} {_end(str(event['end']))}"
        return f"{text} +{points}" if points else text
    if kind == "drew":
        tile = event.get("tile")
        return f"draw {_tile(tile)}" if tile else "draw"
    if kind == "passed":
        return "pass"
    simple = {
        "claimed": "claim",
        "declined": "decline",
        "muggins": "muggins",
        "scored": "score",
    }
    if kind in simple:
        return f"{simple[kind]} {points}"
    if kind == "closed":
        return "close " + " ".join(_end(str(e)) for e in event.get("ends") or ())
    return None


def _sides(values: list[int]) -> str:
    return " ".join(str(v) for v in values)


def _result(result: dict[str, Any], hand: int) -> str:
    reason = result.get("reason")
    if reason == "out":
        how = f"{_seat(result.get('out_seat'))} out"
    elif reason == "target":
        how = "target reached"
    else:
        how = "blocked"
    return (
        f"= hand {hand}: {how}; points {_sides(result.get('points') or [])}; "
        f"scores {_sides(result.get('scores') or [])}"
    )


def _header(table: Table, seats: list[Seat]) -> list[str]:
    options = engine.Options.from_dict(table.options)
    lines = [
        _tag("Table", table.pk),
        _tag("Mode", table.mode),
        _tag("Variant", table.variant),
        _tag("Set", f"double-{options.set_max}"),
        _tag("Seats", options.seats),
        _tag("Partnerships", "yes" if options.partnership else "no"),
        _tag("Target", options.target),
        _tag("Status", table.status),
    ]
    if table.finished_at is not None:
        lines.append(_tag("Finished", table.finished_at.strftime("%Y-%m-%dT%H:%M:%SZ")))
    for seat in seats:
        lines.append(_tag(f"Seat{seat.position + 1}", _seat_name(seat)))
    if table.fair is not None:
        lines.append(_tag("FairDeal", "v1"))
        for i, commitment in enumerate(table.fair["commitments"]):
            name = "Commitment" if i == 0 else f"Commitment{i + 1}"
            lines.append(_tag(name, commitment))
        for position, seed in enumerate(table.fair["seeds"]):
            lines.append(_tag(f"ClientSeed{position + 1}", seed or ""))
    return lines


def _deal(state: engine.State) -> list[str]:
    """A hand's first lines: its number and dealer, then the deal face up."""
    faces = engine.face_up(state)
    out = ["", f"Hand {state.hand_no} (dealer {_seat(state.dealer)})"]
    for position, tiles in enumerate(faces["hands"]):
        out.append(f"  {_seat(position)}: " + " ".join(_tile(t) for t in tiles))
    if faces["stock"]:
        out.append("  stock: " + " ".join(_tile(t) for t in faces["stock"]))
    return out


class _Record:
    """The lines of a record, written event by event as the log is replayed."""

    def __init__(self, header: list[str], start: engine.State) -> None:
        self.lines = [*header, *_deal(start)]
        self.dealt = {start.hand_no}
        self.resulted: set[int] = set()
        self.moves = 0

    def result(self, state: engine.State) -> None:
        if state.hand_no not in self.resulted and state.hand_result is not None:
            self.resulted.add(state.hand_no)
            self.lines.append(_result(state.hand_result, state.hand_no))

    def event(self, event: dict[str, Any], state: engine.State, mark: str) -> None:
        kind = event.get("type")
        move = _move(event)
        if move is not None:
            self.moves += 1
            self.lines.append(f"{self.moves}. {_seat(event.get('seat'))} {move}{mark}")
        elif kind == "hand_over":
            self.result(state)
        elif kind == "hand_started" and state.hand_no not in self.dealt:
            self.dealt.add(state.hand_no)
            self.lines += _deal(state)
        elif kind == "match_over":
            # A claim that reaches the target ends the hand with the match.
            self.result(state)
            winners = " ".join(_seat(s) for s in event.get("winners") or ())
            self.lines.append(f"= match: {winners} won")
        elif kind == "abandoned":
            self.lines.append("= abandoned")


def record_text(*, table: Table) -> str:
    """The whole record of an ended table (docs/notation.md)."""
    seats = list(Seat.objects.filter(table=table).select_related("user"))
    header = _header(table, seats)
    start = replay_start(table)
    if start is None:
        return "\n".join([*header, "", "= abandoned before the first deal", ""])
    record = _Record(header, start)
    for logged, state in replay_walk(table, start):
        # The stand-in played because the seat's clock ran out.
        mark = " {clock}" if logged.actor == "clock" else ""
        for event in logged.events:
            record.event(event, state, mark)
    return "\n".join(record.lines) + "\n"
