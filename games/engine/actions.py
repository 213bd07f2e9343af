"""Actions: hashable value objects and their wire dicts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from games.engine.messages import Param, gettext_noop, text
from games.engine.tiles import MAX_PIPS

Pair = tuple[int, int]

PLAY = "play"
DRAW = "draw"
PASS = "pass"
CLAIM = "claim"
CONTINUE = "continue"
MUGGINS = "muggins"
CLOSE = "close"
PLAY_DOUBLES = "play_doubles"
NEXT_HAND = "next_hand"
KINDS = (PLAY, DRAW, PASS, CLAIM, CONTINUE, MUGGINS, CLOSE, PLAY_DOUBLES, NEXT_HAND)


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``template`` is an English text marked with ``gettext_noop`` and ``params``
    its named values (numbers, or ``Text`` names of tiles and ends); ``message``
    holds both, for the caller to show translated (``message.render(gettext)``).
    ``reason`` and ``str()`` are the English text, for logs and tests.
    """

    def __init__(self, template: str, /, **params: Param) -> None:
        self.message = text(template, **params)
        self.template = template
        self.params = self.message.params
        self.reason = self.message.render()
        super().__init__(self.reason)


class Action(NamedTuple):
    """One decision. Hashable, compared by value; ``tile`` pairs are ``(lo, hi)``."""

    type: str
    tile: Pair | None = None
    end: str | None = None
    points: int | None = None
    ends: tuple[str, ...] = ()
    plays: tuple[tuple[Pair, str], ...] = ()

    @staticmethod
    def play(tile: Pair, end: str) -> Action:
        """Play ``tile`` on the end ``end``."""
        a, b = tile
        return Action(PLAY, (a, b) if a <= b else (b, a), end)

    @staticmethod
    def draw() -> Action:
        """Draw one tile from the stock."""
        return _DRAW

    @staticmethod
    def pass_() -> Action:
        """Pass (knock): only when nothing else is allowed."""
        return _PASS

    @staticmethod
    def claim(points: int) -> Action:
        """Claim the end-sum points of one's own last play."""
        return Action(CLAIM, points=points)

    @staticmethod
    def continue_() -> Action:
        """Go on without claiming (opens a Muggins window); also: close nothing."""
        return _CONTINUE

    @staticmethod
    def muggins() -> Action:
        """Take the points an opponent did not claim."""
        return _MUGGINS

    @staticmethod
    def close(ends: Iterable[str]) -> Action:
        """Spider: close the doubles just laid on these ends."""
        return Action(CLOSE, ends=tuple(sorted(ends)))

    @staticmethod
    def play_doubles(plays: Iterable[tuple[Pair, str]]) -> Action:
        """Spider: lay several doubles, each on its own end, in one move."""
        return Action(
            PLAY_DOUBLES,
            plays=tuple(sorted(((min(t), max(t)), e) for t, e in plays)),
        )

    @staticmethod
    def next_hand() -> Action:
        """Deal the next hand."""
        return _NEXT_HAND


_DRAW = Action(DRAW)
_PASS = Action(PASS)
_CONTINUE = Action(CONTINUE)
_MUGGINS = Action(MUGGINS)
_NEXT_HAND = Action(NEXT_HAND)
_SIMPLE = {
    DRAW: _DRAW,
    PASS: _PASS,
    CONTINUE: _CONTINUE,
    MUGGINS: _MUGGINS,
    NEXT_HAND: _NEXT_HAND,
}


def _parse_tile(value: Any) -> Pair:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise IllegalAction(
            gettext_noop("A tile is a pair of two numbers, like [3, 5].")
        )
    a, b = value
    for x in (a, b):
        if isinstance(x, bool) or not isinstance(x, int):
            raise IllegalAction(gettext_noop("A tile's halves must be whole numbers."))
        if not 0 <= x <= MAX_PIPS:
            raise IllegalAction(
                gettext_noop("A tile's halves go from 0 to %(max)s."), max=MAX_PIPS
            )
    return (a, b) if a <= b else (b, a)


def _parse_end(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > 32:
        raise IllegalAction(gettext_noop('An end is named by its id, like "left".'))
    return value


# The fields each kind of action carries; every other field keeps its default.
_FIELDS: dict[str, tuple[str, ...]] = {
    PLAY: ("tile", "end"),
    CLAIM: ("points",),
    CLOSE: ("ends",),
    PLAY_DOUBLES: ("plays",),
}
_DEFAULTS: dict[str, Any] = dict(Action._field_defaults)


def _canonical_play(action: Action) -> bool:
    """Whether ``action`` is a play exactly as ``Action.play`` builds a valid one.

    The common case of ``apply`` (every move of a bot's playout) is checked here
    in a few comparisons; anything else takes the full check of ``action_check``.
    """
    tile, end = action.tile, action.end
    return (
        type(tile) is tuple
        and len(tile) == 2
        and type(tile[0]) is int
        and type(tile[1]) is int
        and 0 <= tile[0] <= tile[1] <= MAX_PIPS
        and type(end) is str
        and 0 < len(end) <= 32
        and action.points is None
        and action.ends == ()
        and action.plays == ()
    )


def action_check(action: Action) -> Action:
    """Validate every field of an ``Action`` built in-process; return it canonical.

    An ``Action`` is a plain named tuple: code may build one with any values, so
    ``apply`` checks it as strictly as a wire dict. Raises ``IllegalAction`` on an
    unknown type, a field its type does not carry, or a malformed field.
    """
    kind = action.type
    if type(action) is Action and type(kind) is str:
        if kind == PLAY and _canonical_play(action):
            return action
        if action is _SIMPLE.get(kind):
            return action
    if not isinstance(kind, str) or kind not in KINDS:
        raise IllegalAction(gettext_noop("There is no such action."))
    fields = _FIELDS.get(kind, ())
    extra = [
        name
        for name, default in _DEFAULTS.items()
        if name not in fields and not _is_default(getattr(action, name), default)
    ]
    if extra:
        raise IllegalAction(
            gettext_noop("Unexpected field(s) for %(action)s: %(fields)s."),
            action=kind,
            fields=", ".join(extra),
        )
    wire: dict[str, Any] = {"type": kind}
    for name in fields:
        wire[name] = getattr(action, name)
    if kind == PLAY_DOUBLES and isinstance(wire["plays"], list | tuple):
        wire["plays"] = [_play_dict(p) for p in wire["plays"]]
    return parse_action(wire)


def _is_default(value: Any, default: Any) -> bool:
    if default is None:
        return value is None
    return type(value) is tuple and not value


def _play_dict(play: Any) -> Any:
    """One ``(tile, end)`` pair of ``Action.plays`` as its wire object."""
    if isinstance(play, list | tuple) and len(play) == 2:
        return {"tile": play[0], "end": play[1]}
    return play


def parse_action(d: Any) -> Action:
    """Validate a wire dict (or an ``Action``) and return its ``Action``.

    Raises ``IllegalAction`` on anything malformed: not a dict, unknown type,
    missing or extra fields, wrong field types, out-of-range pips.
    """
    if isinstance(d, Action):
        return action_check(d)
    if not isinstance(d, dict):
        raise IllegalAction(gettext_noop('An action must be an object with a "type".'))
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise IllegalAction(gettext_noop("There is no such action."))
    expected = {
        PLAY: {"tile", "end"},
        CLAIM: {"points"},
        CLOSE: {"ends"},
        PLAY_DOUBLES: {"plays"},
    }.get(kind, set())
    # A play copied from a view's ``legal`` list carries the points it would make;
    # that annotation is informative and ignored here (the engine recomputes it).
    ignored = {"points"} if kind == PLAY else set()
    extra = set(d) - expected - ignored - {"type"}
    if extra:
        raise IllegalAction(
            gettext_noop("Unexpected field(s) for %(action)s: %(fields)s."),
            action=kind,
            fields=", ".join(sorted(extra)),
        )
    missing = expected - set(d)
    if missing:
        raise IllegalAction(
            gettext_noop("Missing field(s) for %(action)s: %(fields)s."),
            action=kind,
            fields=", ".join(sorted(missing)),
        )
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == PLAY:
        return Action(PLAY, _parse_tile(d["tile"]), _parse_end(d["end"]))
    if kind == CLAIM:
        pts = d["points"]
        if isinstance(pts, bool) or not isinstance(pts, int) or not 0 < pts < 10_000:
            raise IllegalAction(
                gettext_noop("A claim is a positive whole number of points.")
            )
        return Action(CLAIM, points=pts)
    if kind == CLOSE:
        ends = d["ends"]
        if not isinstance(ends, list | tuple) or not ends or len(ends) > 8:
            raise IllegalAction(gettext_noop("Close needs a list of one or more ends."))
        ids = [_parse_end(e) for e in ends]
        if len(set(ids)) != len(ids):
            raise IllegalAction(gettext_noop("Each end may be closed once."))
        return Action(CLOSE, ends=tuple(sorted(ids)))
    plays = d["plays"]
    if not isinstance(plays, list | tuple) or not 2 <= len(plays) <= 8:
        raise IllegalAction(
            gettext_noop("Laying doubles needs a list of two or more plays.")
        )
    out = []
    for p in plays:
        if not isinstance(p, dict) or set(p) != {"tile", "end"}:
            raise IllegalAction(
                gettext_noop("Each play is an object with a tile and an end.")
            )
        out.append((_parse_tile(p["tile"]), _parse_end(p["end"])))
    return Action(PLAY_DOUBLES, plays=tuple(sorted(out)))


def action_to_dict(action: Action) -> dict[str, Any]:
    """The wire dict of an action."""
    kind = action.type
    if kind == PLAY:
        assert action.tile is not None
        return {"type": PLAY, "tile": list(action.tile), "end": action.end}
    if kind == CLAIM:
        return {"type": CLAIM, "points": action.points}
    if kind == CLOSE:
        return {"type": CLOSE, "ends": list(action.ends)}
    if kind == PLAY_DOUBLES:
        return {
            "type": PLAY_DOUBLES,
            "plays": [{"tile": list(t), "end": e} for t, e in action.plays],
        }
    return {"type": kind}
