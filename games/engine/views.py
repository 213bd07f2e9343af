"""What a seat (or a spectator) may know, and the bots' helpers built on it.

A view never holds another seat's unrevealed tiles, the stock's contents or order,
or the seed. Hands are revealed only in ``hand_result`` once the hand is over.
"""

from __future__ import annotations

from typing import Any

from games.engine.actions import PLAY, Action, action_to_dict
from games.engine.layout import arm_of, attach, end_sum, open_layout, playable_ends
from games.engine.options import Options, rules_for
from games.engine.rules import (
    _choose_opener,
    current_seat,
    legal_actions,
)
from games.engine.scoring import end_points
from games.engine.state import (
    BARE,
    CLOSED,
    DBL,
    FILL,
    PHASE_CLAIM,
    PHASE_HAND_OVER,
    PHASE_MATCH_OVER,
    PHASE_PLAY,
    SPIN,
    End,
    Event,
    State,
    entry_to_event,
    from_json,
    to_json,
)
from games.engine.tiles import NAMES, PAIRS, TILE_HI, TILE_LO, bits, tile_id


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """A transition's events as ``seat`` may see them (``None``: spectator).

    A drawn tile is shown only to the seat that drew it.
    """
    out = []
    for ev in events:
        if ev.get("type") == "drew" and ev.get("seat") != seat:
            ev = {**ev, "tile": None}
        out.append(ev)
    return out


def _layout_view(state: State) -> dict[str, Any]:
    """Arms and ends rebuilt from the hand's plays (built only when asked)."""
    r = rules_for(state.options)
    arms: dict[str, dict[str, Any]] = {}
    root: list[int] | None = None
    ends: tuple[End, ...] = ()
    spinner, spun = -1, False
    for e in state.log:
        if e[0] != "play":
            continue
        t, eid = e[2], e[3]
        if not ends:
            ends, spinner = open_layout(r.layout, t)
            root = list(PAIRS[t])
            if ends[0][0] == "left":
                arms["line"] = {
                    "id": "line",
                    "start": root,
                    "tiles": [root],
                    "ends": ["left", "right"],
                }
            else:
                for end in ends:
                    arms[end[0]] = {
                        "id": end[0],
                        "start": root,
                        "tiles": [],
                        "ends": [end[0]],
                    }
            continue
        i = next(k for k, x in enumerate(ends) if x[0] == eid)
        v = ends[i][1]
        other = TILE_HI[t] if TILE_LO[t] == v else TILE_LO[t]
        if eid == "left":
            arms["line"]["tiles"].insert(0, [other, v])
        else:
            arms[arm_of(eid)]["tiles"].append([v, other])
        before = {x[0] for x in ends}
        ends, spinner, spun = attach(r.layout, ends, i, t, spinner, spun)
        for x in ends:
            if x[0] not in before:
                start = x[0].split(":")[0]
                a, b = (int(n) for n in start.split("-"))
                arms[x[0]] = {"id": x[0], "start": [a, b], "tiles": [], "ends": [x[0]]}
    playable = {x[0] for x in playable_ends(state.ends)} if state.ends else set()
    return {
        "root": root,
        "arms": list(arms.values()),
        "ends": [
            {
                "id": eid,
                "arm": arm_of(eid),
                "value": v,
                "state": "closed" if f & CLOSED else "open",
                "double": bool(f & DBL),
                "spinner": bool(f & SPIN),
                "empty": bool(f & (FILL | BARE)),
                "playable": eid in playable,
            }
            for eid, v, f in state.ends
        ],
        "spinner": list(PAIRS[state.spinner]) if state.spinner >= 0 else None,
    }


def _play_points(state: State, action: Action) -> int:
    """End-sum points a play would make (scoring variants)."""
    r = rules_for(state.options)
    assert action.tile is not None
    t = tile_id(*action.tile)
    if state.played == 0:
        ends, _ = open_layout(r.layout, t)
    else:
        i = next(k for k, x in enumerate(state.ends) if x[0] == action.end)
        ends, _, _ = attach(r.layout, state.ends, i, t, state.spinner, state.spun)
    return end_points(r.scoring, end_sum(ends, state.played + 1))


def _public_state(state: State, seat: int | None) -> dict[str, Any]:
    d = to_json(state)
    d["seed"] = None
    d["fair"] = None  # the chain tops: h_k of a hand is revealed only once it ends
    d["hands"] = [h if i == seat else None for i, h in enumerate(state.hands)]
    d["stock"] = None
    d["stock_count"] = len(state.stock)
    if seat != state.turn:
        d["opening"] = None
    d["log"] = [
        ["draw", e[1], -1] if e[0] == "draw" and e[1] != seat else list(e)
        for e in d["log"]
    ]
    if state.phase not in (PHASE_HAND_OVER, PHASE_MATCH_OVER):
        d["hand_result"] = None
    return d


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know, JSON-ready (``None``: a spectator)."""
    r = rules_for(state.options)
    if seat is not None and not 0 <= seat < r.seats:
        raise ValueError(f"no seat {seat}")
    to_move = current_seat(state)
    legal: list[dict[str, Any]] = []
    if seat is not None:
        for a in legal_actions(state, seat):
            d = action_to_dict(a)
            if a.type == PLAY and r.end_scoring:
                d["points"] = _play_points(state, a)
            legal.append(d)
    claim: dict[str, Any] | None = None
    if state.phase == PHASE_CLAIM:
        claim = {
            "kind": "claim",
            "seat": state.turn,
            "points": state.pending,
            "muggins_callable": False,
        }
    elif state.muggins is not None and state.phase == PHASE_PLAY:
        scorer, pts = state.muggins
        claim = {
            "kind": "muggins",
            "seat": scorer,
            "points": pts,
            "muggins_callable": seat is not None
            and r.side_of[seat] != r.side_of[scorer],
        }
    over = state.phase in (PHASE_HAND_OVER, PHASE_MATCH_OVER)
    out: dict[str, Any] = {
        "variant": state.options.variant,
        "options": state.options.to_dict(),
        "seat": seat,
        "phase": state.phase,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "to_move": to_move,
        "hand_counts": [h.bit_count() for h in state.hands],
        "stock_count": len(state.stock),
        "layout": _layout_view(state),
        "scores": list(state.scores),
        "teams": [
            [s for s in range(r.seats) if r.side_of[s] == i] for i in range(r.n_sides)
        ],
        "side_of": list(r.side_of),
        "target": state.options.target,
        "end_sum": end_sum(state.ends, state.played)
        if r.end_scoring and state.played
        else None,
        "claim": claim,
        "legal": legal,
        "history": events_for(
            [entry_to_event(e, state.hand_result if over else None) for e in state.log],
            None,
        ),
        "hand_result": state.hand_result if over else None,
        "winners": list(state.winners),
        "public_state": _public_state(state, seat),
    }
    if seat is not None:
        out["hand"] = [list(PAIRS[t]) for t in bits(state.hands[seat])]
    return out


def public_info(v: dict[str, Any]) -> dict[str, Any]:
    """What a bot samples from: ``unseen`` tiles (pairs) for the viewing seat,
    ``hand_counts``, ``stock_count`` and ``missing`` numbers per seat.

    ``missing[s]`` lists numbers seat ``s`` is known not to hold: the open
    numbers at each of its passes since its last draw (a draw adds an unknown
    tile, so it clears the knowledge).
    """
    ps = v["public_state"]
    opts = Options.from_dict(ps["options"])
    r = rules_for(opts)
    seen = 0
    seat = v["seat"]
    if seat is not None:
        seen |= ps["hands"][seat]
    missing: list[set[int]] = [set() for _ in range(r.seats)]
    ends: tuple[End, ...] = ()
    spinner, spun = -1, False
    for e in ps["log"]:
        kind = e[0]
        if kind == "play":
            t = e[2]
            seen |= 1 << t
            if not ends:
                ends, spinner = open_layout(r.layout, t)
            else:
                i = next(k for k, x in enumerate(ends) if x[0] == e[3])
                ends, spinner, spun = attach(r.layout, ends, i, t, spinner, spun)
        elif kind == "close":
            ends = tuple(
                (x[0], x[1], x[2] | CLOSED) if x[0] in e[2] else x for x in ends
            )
        elif kind == "pass" and ends:
            missing[e[1]] |= {x[1] for x in playable_ends(ends)}
        elif kind == "draw":
            missing[e[1]] = set()
    unseen = [PAIRS[t] for t in range(r.n_tiles) if not seen >> t & 1]
    return {
        "unseen": [list(p) for p in unseen],
        "hand_counts": v["hand_counts"],
        "stock_count": v["stock_count"],
        "missing": [sorted(m) for m in missing],
    }


def determinize(
    v: dict[str, Any],
    hands: dict[int, list[tuple[int, int]]],
    stock: list[tuple[int, int]],
) -> State:
    """A full state from a seat's view plus a guess of the hidden tiles.

    ``hands`` gives every other seat's tiles, ``stock`` the stock in draw order.
    Raises ``ValueError`` if the guess does not fit the view (counts, overlaps).
    """
    d = dict(v["public_state"])
    seat = v["seat"]
    n = len(d["hands"])
    masks: list[int] = []
    used = 0
    for s in range(n):
        if s == seat:
            m = d["hands"][s]
        else:
            if s not in hands:
                raise ValueError(f"no guess for seat {s}")
            m = 0
            for a, b in hands[s]:
                m |= 1 << tile_id(a, b)
            if m.bit_count() != len(hands[s]) or m.bit_count() != v["hand_counts"][s]:
                raise ValueError(f"seat {s} holds {v['hand_counts'][s]} tiles")
        if m & used:
            raise ValueError("a tile is guessed twice")
        used |= m
        masks.append(m)
    stock_ids = [tile_id(a, b) for a, b in stock]
    if len(stock_ids) != v["stock_count"]:
        raise ValueError(f"the stock holds {v['stock_count']} tiles")
    for t in stock_ids:
        if used >> t & 1:
            raise ValueError("a tile is guessed twice")
        used |= 1 << t
    d["hands"] = masks
    d["stock"] = stock_ids
    d["seed"] = 0
    d["fair"] = None  # later hands of a guess are dealt from a placeholder seed
    d.pop("stock_count", None)
    if d["opening"] is None:
        d["opening"] = []
        if d["played"] == 0 and d["turn"] >= 0:
            r = rules_for(Options.from_dict(d["options"]))
            who, opening = _choose_opener(
                r,
                tuple(masks),
                d["hand_no"],
                d["dealer"],
                d["last_winner"],
                d["last_opener"] if d["hand_no"] > 1 else -1,
            )
            if who == d["turn"]:
                d["opening"] = list(opening)
    return from_json(d)


__all__ = ["NAMES", "determinize", "events_for", "public_info", "view"]


def face_up(state: State) -> dict[str, Any]:
    """Every seat's tiles and the stock in draw order, JSON-ready: what a replay of
    an ended table shows, and nothing a live table may send."""
    return {
        "hands": [[list(PAIRS[t]) for t in bits(mask)] for mask in state.hands],
        "stock": [list(PAIRS[t]) for t in state.stock],
    }
