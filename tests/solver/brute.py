"""Brute force for the solver's tests: plain minimax (or max^n) over
``games.engine.apply``, every legal option tried, no pruning, no table, no
ordering; and small positions of every variant to run it on.

It shares nothing with ``games.review`` but the definition of perfect play
(docs/review.md): the hand is played to its end whatever the match scores
(``far``); every seat plays for its side's margin (own points minus the mean
of the other sides', Spider's penalties negated); max^n breaks ties between
lines by the least for the best-placed other side, then a fixed order. Unlike
the solver it does not assume that scoring plays are claimed: the scorer may
also continue, and the scorer's first opponent in turn order then calls
Muggins (so the tests also check that claiming is never worse).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.engine import (
    Action,
    Options,
    State,
    apply,
    from_json,
    legal_actions,
    new_match,
    to_json,
)
from games.engine.options import Rules, rules_for

LIVE = ("play", "claim", "close")

Points = tuple[int, ...]
Line = tuple[Points, str, int]  # points per side, how it ended, the seat out (-1)


def first_opponent(r: Rules, seat: int) -> int:
    return next(
        (seat + k) % r.seats
        for k in range(1, r.seats)
        if r.side_of[(seat + k) % r.seats] != r.side_of[seat]
    )


def far(s: State) -> State:
    """``s`` with match scores no hand reaches a target from."""
    d = to_json(s)
    d["scores"] = [-(10**9)] * len(s.scores)
    return from_json(d)


def root(s: State) -> State:
    """Where the brute force starts from ``s``: far from any target, an open
    Muggins window called."""
    return call_open_muggins(far(s))


def call_open_muggins(s: State) -> State:
    """The convention for a window left open: the first opponent calls."""
    if s.phase == "play" and s.muggins is not None:
        r = rules_for(s.options)
        return apply(s, first_opponent(r, s.muggins[0]), Action.muggins())
    return s


def successors(s: State) -> list[State]:
    """Every option of the seat to move, Muggins answered at once."""
    seat = s.turn
    out = []
    for a in legal_actions(s, seat):
        if a.type == "muggins":
            continue
        c = apply(s, seat, a)
        if s.phase == "claim" and a.type == "continue":
            c = call_open_muggins(c)
        out.append(c)
    return out


def _line(s: State, start: State) -> Line:
    pts = tuple(a - b for a, b in zip(s.scores, start.scores, strict=True))
    res = s.hand_result or {}
    out = res.get("out_seat")
    return pts, res.get("reason", "over"), -1 if out is None else out


def margin0(s: State, start: State) -> int:
    """Two sides: side 0's margin from ``start`` under perfect play."""
    if s.phase not in LIVE:
        pts = _line(s, start)[0]
        d = pts[0] - pts[1]
        return -d if s.options.variant == "spider" else d
    vals = [margin0(c, start) for c in successors(s)]
    return max(vals) if rules_for(s.options).side_of[s.turn] == 0 else min(vals)


def preference(side: int, line: Line, sign: int) -> tuple[object, ...]:
    pts, reason, out = line
    g = [sign * p for p in pts]
    n, total = len(g), sum(g)
    m = [n * x - total for x in g]
    others = max(x for i, x in enumerate(m) if i != side)
    return (m[side], -others, tuple(-p for p in pts), reason, -out)


def maxn(s: State) -> Line:
    """More sides: the max^n line from ``s``, in points made from ``s`` on
    (a tie-break that read the points made before would differ between two
    ways into one position)."""
    if s.phase not in LIVE:
        return (0,) * len(s.scores), *_line(s, s)[1:]
    side = rules_for(s.options).side_of[s.turn]
    sign = -1 if s.options.variant == "spider" else 1
    lines = []
    for c in successors(s):
        made = tuple(a - b for a, b in zip(c.scores, s.scores, strict=True))
        pts, reason, out = maxn(c)
        lines.append(
            (tuple(a + b for a, b in zip(made, pts, strict=True)), reason, out)
        )
    return max(lines, key=lambda ln: preference(side, ln, sign))


def tiles_left(s: State) -> int:
    """Tiles in hands plus the drawable stock."""
    r = rules_for(s.options)
    n = sum(h.bit_count() for h in s.hands)
    if r.stock != "none":
        n += max(0, len(s.stock) - r.reserve)
    return n


def tree_size(s: State, cap: int) -> int:
    """Nodes of the brute-force tree from ``s``, counted up to ``cap + 1``."""
    n = 0
    stack = [root(s)]
    while stack:
        x = stack.pop()
        n += 1
        if n > cap:
            break
        if x.phase in LIVE:
            stack.extend(successors(x))
    return n


def small_positions(
    options: Options, count: int, cap: int, seed: int = 0
) -> Iterator[State]:
    """``count`` live positions of random play from deals ``seed``,
    ``seed + 1``, ...: in each deal, the earliest position of the random line
    (scanning back from its end) whose brute-force tree has at most ``cap``
    nodes. In the variants that score during the hand every other one has its
    scores moved next to the target, so that the target's rule is met."""
    found = 0
    deal = seed
    r = rules_for(options)
    while found < count:
        s = new_match(options, deal)
        rng = random.Random(deal)
        deal += 1
        line = []
        while s.phase in LIVE:
            line.append(s)
            seat = s.turn
            acts = [a for a in legal_actions(s, seat) if a.type != "muggins"]
            s = apply(s, seat, rng.choice(acts))
        if r.end_scoring and found % 2:
            line = [_near_target(x) for x in line]
        pick = None
        for x in reversed(line):
            if tree_size(x, cap) > cap:
                break
            pick = x
        if pick is None:
            continue
        found += 1
        yield pick


def _near_target(s: State) -> State:
    s = s.copy()
    s.scores = tuple(s.options.target - 5 * (1 + i) for i in range(len(s.scores)))
    return s
