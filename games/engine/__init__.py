"""The rules engine: every variant of RULES.md, pure, exact and fast.

Pure Python, no Django, no I/O. Everything that plays (live tables, bots, the
matchmaker, replays) goes through the functions below.

Public API
==========

``from games.engine import Options, options_for, VARIANTS, InvalidOptions,
IllegalAction, State, Action, new_match, legal_actions, apply, view, to_json,
from_json, parse_action, action_to_dict, current_seat, is_match_over, determinize,
events_for, public_info, tile_pairs, Text, tile_name, end_name, fair_extend``

Options and variants
--------------------
``options_for(variant, **overrides) -> Options`` builds a validated preset, e.g.
``options_for("block", set_max=6, seats=4, partnership=True, target=100)``.
Overridable fields: ``set_max`` (6/9/12), ``seats``, ``partnership``, ``target``,
``tiles_per_seat`` (Catalan: 5 or 7; for ``block``/``draw`` it picks the matching
``deal``), ``deal`` (``block``/``draw``: ``"standard"`` = RULES.md §2 table,
``"002"`` = 002's deal: block 7 each; draw 7 for 2 seats, 5 for 3-4),
``opening`` (``block``/``draw``: ``"highest_double"`` every hand, or ``"winner"``:
first hand highest double, later hands the last hand's winner with any tile),
``no_double`` (``block``/``draw``: ``"redeal"`` or ``"heaviest"`` tile).
A bad value or combination raises ``InvalidOptions`` (a ``ValueError``) whose
``.option`` names the offending option. ``Options`` is a frozen dataclass with
``to_dict()`` / ``Options.from_dict(d)``.

``VARIANTS: dict[str, VariantSpec]``: ``id``, ``title``, ``summary`` (rules for
players), ``sets``, ``default_set``, ``seats``, ``partnership`` ("never",
"optional" or "forced", applying to 4 seats only), ``targets``,
``default_target``, ``choices`` (other choosable options -> allowed values) and
``spec.to_dict()`` for the Play page form.

Matches
-------
``new_match(options, seed, *, fair=None) -> State``: hand 1 is dealt at once. With
``fair`` (a ``games.engine.fair.FairDeal``) each hand is dealt by RULES.md §1.1;
without, by ``random.Random(f"{seed}:{hand_no}")`` (tables before fair deals). Either
way seed (or fair deal) + actions replay exactly. ``fair_extend(state, top)`` adds
the next hash chain before a match outgrows its chains (``FairDeal.has_key``).
The dealer is seat 0 for hand 1 and rotates; seats 0+2 and 1+3 are partners.

``State`` is immutable from the outside and compares by value. Attributes:
``options``, ``phase`` ("play", "claim" = the scorer must claim or continue,
"close" = Spider: the seat that just laid doubles may close them,
"hand_over" = waiting for a ``next_hand`` action, "match_over"),
``hand_no``, ``dealer``, ``scores`` (a tuple **per side**: without partnerships
side i is seat i; with partnerships side 0 = seats 0+2, side 1 = seats 1+3; in
Spider the scores are penalty points), ``events`` (a tuple of ``Event`` named
tuples of the last transition; turn them into dicts with ``events_for``),
``winners`` (the winning seats once the match is over), ``hand_result``.

``current_seat(state) -> int | None``: the seat whose decision it is; ``None`` in
"hand_over" (any seat, or the server, may send ``next_hand``) and "match_over".
``is_match_over(state) -> bool``.

Who may act: in "play", "claim" and "close" only ``current_seat``; in addition,
while a Muggins window is open (the scorer continued without claiming, until the
next tile is played or the hand ends), every opponent of the scorer may send
``muggins`` - ``legal_actions`` of such a seat then contains it even when it is
not that seat's turn. In "hand_over" every seat may send ``next_hand``.

Actions
-------
``Action`` is a hashable named tuple compared by value: ``Action.play((a, b),
end)``, ``Action.draw()``, ``Action.pass_()``, ``Action.claim(n)``,
``Action.continue_()``, ``Action.muggins()``, ``Action.close(ends)``,
``Action.play_doubles([((a, a), end), ...])``, ``Action.next_hand()``.
Wire dicts (``parse_action`` / ``action_to_dict``)::

    {"type": "play", "tile": [a, b], "end": "<end id>"}
    {"type": "draw"}  {"type": "pass"}  {"type": "continue"}  {"type": "muggins"}
    {"type": "claim", "points": n}
    {"type": "close", "ends": ["<end id>", ...]}                       (Spider)
    {"type": "play_doubles", "plays": [{"tile": [a, a], "end": id}, ...]} (Spider)
    {"type": "next_hand"}

The first tile of a hand is played on the end id ``"root"`` (``ROOT``).
End ids: the line has ``"left"`` and ``"right"``; the Cross / Spider centre has
``"n"``, ``"e"``, ``"s"``, ``"w"``; a branching double (Grand Cross) or the Fives
spinner's short sides add ``"<x>-<x>:l"`` and ``"<x>-<x>:r"``. Every end
belongs to an arm (see ``view``).

``legal_actions(state, seat) -> list[Action]`` (empty when the seat may not act).
``apply(state, seat, action)`` takes an ``Action`` or a wire dict and returns the
new state, or raises ``IllegalAction`` and leaves the given state untouched.

Texts for players
-----------------
``IllegalAction.message`` and ``InvalidOptions.text`` are ``Text`` values: an
English template marked with ``gettext_noop`` (so Django's extraction finds it)
plus named values, some of them ``Text`` names of tiles ("double six") and ends
("north arm"). The engine has no Django: whoever shows the text translates it,
``exc.message.render(gettext)``. ``str(exc)`` is the English, for logs. Variant
``title`` and ``summary`` are marked the same way: translate them where shown.

Views
-----
``view(state, seat | None) -> dict`` (JSON-ready): ``variant``, ``options``,
``seat``, ``phase``, ``hand_no``, ``dealer``, ``to_move``, own ``hand`` (omitted
for spectators), ``hand_counts``, ``stock_count``, ``layout`` =
``{"root": [a, b] | None, "arms": [{"id", "start", "tiles", "ends"}],
"ends": [{"id", "arm", "value", "state": "open"|"closed", "double", "spinner",
"playable"}]}``, ``scores``, ``teams`` (side -> seats), ``end_sum`` (scoring
variants), ``claim`` (the open claim or Muggins window: ``{"kind", "seat",
"points", "muggins_callable"}`` or ``None``), ``legal`` (this seat's legal
actions as wire dicts; plays carry ``"points"`` in scoring variants),
``history`` (public log of the hand), ``hand_result`` (when the hand has ended:
every hand revealed plus the breakdown), ``winners``, ``public_state`` (the
public part of the state, used by ``determinize``). A view never contains another
seat's unrevealed tiles or the stock's order.

``events_for(events, seat | None) -> list[dict]`` filters one transition's events
for a seat (a "drew" event shows the tile only to the drawer).
``public_info(view) -> dict``: ``unseen`` tiles for the viewing seat,
``hand_counts`` and ``missing`` numbers per seat (from passes; a draw clears
them because the drawn tile is unknown).
``determinize(view, hands, stock) -> State``: a full state from a view plus a
guess of the hidden tiles (the bots' simulations). The seed is not public, so
later hands of a determinized state are dealt from a placeholder seed.

``face_up(state) -> dict``: every seat's ``hands`` and the ``stock`` in draw
order, for the replay of an ended table only.

``to_json(state) -> dict`` / ``from_json(d) -> State``: exact round trip.
"""

from games.engine.actions import Action, IllegalAction, action_to_dict, parse_action
from games.engine.messages import Text, end_name, tile_name
from games.engine.options import InvalidOptions, Options, options_for
from games.engine.rules import (
    apply,
    current_seat,
    fair_extend,
    is_match_over,
    legal_actions,
    new_match,
)
from games.engine.state import Event, State, from_json, to_json
from games.engine.tiles import ROOT, tile_pairs
from games.engine.variants import STOCK_NONE, TITLE_CONTEXT, VARIANTS, VariantSpec
from games.engine.views import determinize, events_for, face_up, public_info, view

__all__ = [
    "ROOT",
    "STOCK_NONE",
    "TITLE_CONTEXT",
    "VARIANTS",
    "Action",
    "Event",
    "IllegalAction",
    "InvalidOptions",
    "Options",
    "State",
    "Text",
    "VariantSpec",
    "action_to_dict",
    "apply",
    "current_seat",
    "determinize",
    "end_name",
    "events_for",
    "face_up",
    "fair_extend",
    "from_json",
    "is_match_over",
    "legal_actions",
    "new_match",
    "options_for",
    "parse_action",
    "public_info",
    "tile_name",
    "tile_pairs",
    "to_json",
    "view",
]
