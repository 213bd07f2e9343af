"""The match state: a slotted value object, its log entries and its JSON form.

The state is immutable from the outside: ``apply`` copies it (one flat copy of a
handful of slots) and never touches its input. Hands are bitmasks of tile ids, the
stock a tuple of tile ids (the next draw is ``stock[0]``), each open place an
``(end_id, value, flags)`` tuple.

The hand's log is a tuple of plain tuples (cheap to append on the hot path); the
last transition's entries are the ``events``, turned into dicts only when read.
"""

from __future__ import annotations

from typing import Any

from games.engine.fair import FairDeal
from games.engine.options import Options
from games.engine.tiles import PAIRS

# End flags.
DBL = 1  # the tile at this end is a double: counts both halves
CLOSED = 2  # Spider: a closed double, dead end
SPIN = 4  # Fives: this end is a long side of the spinner
FILL = 8  # Cross: one of the four arms, still empty (must be filled first)
BARE = 16  # a branch end with no tile on it yet (counts nothing)

PHASE_PLAY = "play"
PHASE_CLAIM = "claim"
PHASE_CLOSE = "close"
PHASE_HAND_OVER = "hand_over"
PHASE_MATCH_OVER = "match_over"

End = tuple[str, int, int]
Entry = tuple[Any, ...]
Event = dict[str, Any]

_SLOTS = (
    "options",
    "seed",
    "fair",
    "hand_no",
    "dealer",
    "phase",
    "turn",
    "hands",
    "stock",
    "ends",
    "played",
    "spinner",
    "spun",
    "opening",
    "pending",
    "muggins",
    "to_close",
    "scores",
    "last_winner",
    "last_opener",
    "log",
    "n_events",
    "hand_result",
    "winners",
)


class State:
    """One match at one moment. Compare with ``==``; serialise with ``to_json``.

    Public attributes: ``options``, ``phase``, ``hand_no``, ``dealer``, ``scores``
    (per side), ``events`` (dicts of the last transition), ``hand_result``,
    ``winners`` (winning seats, once the match is over). Everything else is
    internal and may change.
    """

    __slots__ = _SLOTS

    options: Options
    seed: int  # deals of a table without a fair deal (``random.Random``)
    fair: FairDeal | None  # the fair deal of RULES.md §1.1, when the table has one
    hand_no: int
    dealer: int
    phase: str
    turn: int  # the seat to decide; -1 when nobody in particular
    hands: tuple[int, ...]
    stock: tuple[int, ...]
    ends: tuple[End, ...]
    played: int  # tiles on the layout
    spinner: int  # Fives: tile id of the spinner, or -1
    spun: bool  # Fives: its short sides are open
    opening: tuple[int, ...]  # tiles allowed as the first tile; () = any
    pending: int  # claim phase: the points the scorer may claim
    muggins: tuple[int, int] | None  # (scorer, points) of an open Muggins window
    to_close: tuple[str, ...]  # Spider close phase: ends of the doubles just laid
    scores: tuple[int, ...]
    last_winner: int  # seat that won the last hand, -1 if none (tie)
    last_opener: int
    log: tuple[Entry, ...]
    n_events: int
    hand_result: dict[str, Any] | None
    winners: tuple[int, ...]

    def copy(self) -> State:
        """A flat copy (all fields are immutable or replaced, never mutated)."""
        new = object.__new__(State)
        new.options = self.options
        new.seed = self.seed
        new.fair = self.fair
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands
        new.stock = self.stock
        new.ends = self.ends
        new.played = self.played
        new.spinner = self.spinner
        new.spun = self.spun
        new.opening = self.opening
        new.pending = self.pending
        new.muggins = self.muggins
        new.to_close = self.to_close
        new.scores = self.scores
        new.last_winner = self.last_winner
        new.last_opener = self.last_opener
        new.log = self.log
        new.n_events = self.n_events
        new.hand_result = self.hand_result
        new.winners = self.winners
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _SLOTS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<State {self.options.variant} hand {self.hand_no} {self.phase}"
            f" turn={self.turn} scores={self.scores}>"
        )

    @property
    def events(self) -> list[Event]:
        """The events of the last transition, as dicts (private: filter them
        with ``events_for`` before showing them to a seat)."""
        n = self.n_events
        entries = self.log[len(self.log) - n :] if n else ()
        return [entry_to_event(e, self.hand_result) for e in entries]


def entry_to_event(e: Entry, hand_result: dict[str, Any] | None) -> Event:
    """The full (unfiltered) event dict of one log entry."""
    kind = e[0]
    if kind == "play":
        return {
            "type": "played",
            "seat": e[1],
            "tile": list(PAIRS[e[2]]),
            "end": e[3],
            "points": e[4],
        }
    if kind == "draw":
        tile = list(PAIRS[e[2]]) if e[2] >= 0 else None
        return {"type": "drew", "seat": e[1], "tile": tile}
    if kind == "pass":
        return {"type": "passed", "seat": e[1]}
    if kind == "claim":
        return {"type": "claimed", "seat": e[1], "points": e[2]}
    if kind == "continue":
        return {"type": "declined", "seat": e[1], "points": e[2]}
    if kind == "muggins":
        return {"type": "muggins", "seat": e[1], "points": e[2], "from_seat": e[3]}
    if kind == "close":
        return {"type": "closed", "seat": e[1], "ends": list(e[2])}
    if kind == "score":
        return {"type": "scored", "seat": e[1], "points": e[2]}
    if kind == "start":
        return {
            "type": "hand_started",
            "hand_no": e[1],
            "dealer": e[2],
            "opener": e[3],
            "redeals": e[4],
        }
    if kind == "hand_over":
        return {"type": "hand_over", "reason": e[1], "result": hand_result}
    if kind == "match_over":
        return {"type": "match_over", "winners": list(e[1])}
    raise ValueError(f"unknown log entry {kind!r}")


def _tuplify(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tuplify(v) for v in x)
    return x


def _listify(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_listify(v) for v in x]
    return x


def to_json(state: State) -> dict[str, Any]:
    """The whole state (secrets included) as a JSON-ready dict."""
    return {
        "version": 1,
        "options": state.options.to_dict(),
        "seed": state.seed,
        "fair": state.fair.to_dict() if state.fair is not None else None,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": state.turn,
        "hands": list(state.hands),
        "stock": list(state.stock),
        "ends": [list(e) for e in state.ends],
        "played": state.played,
        "spinner": state.spinner,
        "spun": state.spun,
        "opening": list(state.opening),
        "pending": state.pending,
        "muggins": list(state.muggins) if state.muggins is not None else None,
        "to_close": list(state.to_close),
        "scores": list(state.scores),
        "last_winner": state.last_winner,
        "last_opener": state.last_opener,
        "log": _listify(state.log),
        "n_events": state.n_events,
        "hand_result": state.hand_result,
        "winners": list(state.winners),
    }


def from_json(d: dict[str, Any]) -> State:
    """Read back a dict made by ``to_json``: ``from_json(to_json(s)) == s``."""
    if not isinstance(d, dict) or d.get("version") != 1:
        raise ValueError("not an engine state (version 1)")
    s = object.__new__(State)
    put = object.__setattr__
    put(s, "options", Options.from_dict(d["options"]))
    for name in (
        "seed",
        "hand_no",
        "dealer",
        "phase",
        "turn",
        "played",
        "spinner",
        "spun",
        "pending",
        "last_winner",
        "last_opener",
        "n_events",
        "hand_result",
    ):
        put(s, name, d[name])
    put(s, "hands", tuple(d["hands"]))
    put(s, "stock", tuple(d["stock"]))
    put(s, "ends", tuple((e[0], e[1], e[2]) for e in d["ends"]))
    put(s, "opening", tuple(d["opening"]))
    m = d["muggins"]
    put(s, "muggins", (m[0], m[1]) if m is not None else None)
    put(s, "to_close", tuple(d["to_close"]))
    put(s, "scores", tuple(d["scores"]))
    put(s, "log", _tuplify(d["log"]))
    put(s, "winners", tuple(d["winners"]))
    fair = d.get("fair")  # absent from states stored before fair deals
    put(s, "fair", FairDeal.from_dict(fair) if fair is not None else None)
    return s
