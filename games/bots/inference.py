"""Soft inference from the opponents' choices: which sampled deals explain them.

Decision: the other seats are modelled as players who choose like ``medium``,
which is also how most people play (shed weight and doubles, keep tiles that
fit, do not let the next seat follow): at each of its past plays a seat picks
the play ``p`` among the ones its hand then allowed with probability
proportional to ``exp(BETA * play_score(p))``, where ``play_score`` is
``medium``'s one-move score (``games.bots.medium.play_score``) computed from
*that seat's* point of view at that moment: its hand, the tiles it could not
see then (everything not in its hand and not on the table), and what the next
seat's passes and draws had shown by then. ``option_scores`` computes that
score from bit masks (``line_model``) for the line layouts, checked against
``medium`` by the tests. Each sampled deal gets the likelihood of the plays
actually seen, and ``hard`` averages its search values with these weights
(importance weighting; ``BETA = 0`` turns it off). The hand a seat held at a
past play is its sampled hand plus the tiles it played since, exact once the
seat has stopped drawing, so only plays after a seat's last draw count; the
opening (forced or free) is left out. In the scoring variants (``all_fives``,
``fives_and_threes``) the score includes ``medium``'s points and "do not set up
the next seat" terms, so the ends are told apart by value *and* by being a
double (a double end counts both halves). The terms depend on the deal only
through that seat's hand at the event, so they are cached per (event, hand)
within a decision: late in the hand many deals share them.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from games.bots.board import rules_of
from games.bots.line_model import line_score
from games.engine.layout import attach, open_layout, playable_ends
from games.engine.state import CLOSED, DBL, End
from games.engine.tiles import IS_DOUBLE, NUM_MASK, TILE_HI, TILE_LO

BETA = 3.0


@dataclass(frozen=True, slots=True)
class Event:
    """One informative play of another seat, with what it knew then."""

    seat: int
    tile: int
    end: int  # index into ``ends`` of the end it was played on
    ends: tuple[int, ...]  # the playable end values then (distinct)
    table: int  # tiles on the table before the play
    lacks: int  # tiles the next seat was then known to lack
    sign: float  # +1: the next seat was an opponent, -1: a partner
    since: int  # tiles the seat played from this play on (this one included)
    dbls: tuple[bool, ...]  # each of ``ends`` is a double (end-sum scoring only)
    scoring: str | None  # the end-sum scoring, if the variant has one


def play_events(view: dict[str, Any]) -> list[Event]:
    """The other seats' informative plays of the hand so far (line layouts;
    none elsewhere)."""
    r = rules_of(view)
    if BETA == 0 or r.layout != "line":
        return []
    scoring = r.scoring if r.end_scoring else None
    seat: int = view["seat"]
    n = r.seats
    ends: tuple[End, ...] = ()
    spinner, spun = -1, False
    table = 0
    limits: list[list[list[int]]] = [[] for _ in range(n)]
    raw: list[tuple[int, Event]] = []  # log index, event (``since`` unset)
    last_draw = [-1] * n
    plays: list[tuple[int, int, int]] = []  # index, seat, tile
    for idx, e in enumerate(view["public_state"]["log"]):
        kind = e[0]
        if kind == "play":
            s, t = e[1], e[2]
            if not ends:
                ends, spinner = open_layout(r.layout, t)
            else:
                i = next(k for k, x in enumerate(ends) if x[0] == e[3])
                if s != seat:
                    # The ends a play could go on, told apart by value (and,
                    # where end-sums score, by being a double).
                    vals: list[tuple[int, bool]] = []
                    at = -1
                    for x in playable_ends(ends):
                        key = (x[1], bool(scoring and x[2] & DBL))
                        if key not in vals:
                            vals.append(key)
                        if x[0] == e[3]:
                            at = vals.index(key)
                    nxt = (s + 1) % n
                    lacks = 0
                    for m, allow in limits[nxt]:
                        if allow <= 0:
                            lacks |= m
                    ev = Event(
                        seat=s,
                        tile=t,
                        end=at,
                        ends=tuple(v for v, _ in vals),
                        table=table,
                        lacks=lacks,
                        sign=1.0 if r.side_of[nxt] != r.side_of[s] else -1.0,
                        since=0,
                        dbls=tuple(d for _, d in vals),
                        scoring=scoring,
                    )
                    raw.append((idx, ev))
                ends, spinner, spun = attach(r.layout, ends, i, t, spinner, spun)
            table |= 1 << t
            plays.append((idx, s, t))
            for lim in limits[s]:
                if lim[0] >> t & 1:
                    lim[1] = max(0, lim[1] - 1)
        elif kind == "close":
            ends = tuple(
                (x[0], x[1], x[2] | CLOSED) if x[0] in e[2] else x for x in ends
            )
        elif kind in ("pass", "draw") and ends:
            s = e[1]
            m = 0
            for x in playable_ends(ends):
                m |= NUM_MASK[x[1]]
            limits[s].append([m, 0])
            if kind == "draw":
                last_draw[s] = idx
                for lim in limits[s]:
                    lim[1] += 1
    out: list[Event] = []
    for idx, ev in raw:
        if idx < last_draw[ev.seat]:
            continue
        since = 0
        for j, s2, t2 in plays:
            if j >= idx and s2 == ev.seat:
                since |= 1 << t2
        out.append(dataclasses.replace(ev, since=since))
    return out


def option_scores(ev: Event, hand: int, full: int) -> list[tuple[int, int, float]]:
    """``medium``'s ``play_score`` of every play ``hand`` allowed at ``ev``:
    (tile, end index, score), line layout."""
    may = full & ~ev.table & ~hand & ~ev.lacks
    out: list[tuple[int, int, float]] = []
    vals = ev.ends
    for i, v in enumerate(vals):
        j = 1 - i if len(vals) > 1 else i
        ov, od = vals[j], ev.dbls[j]
        m = hand & NUM_MASK[v]
        while m:
            low = m & -m
            m ^= low
            u = low.bit_length() - 1
            nv = TILE_HI[u] if TILE_LO[u] == v else TILE_LO[u]
            rest = hand & ~low
            sc = line_score(u, nv, IS_DOUBLE[u], ov, od, rest, may, ev.sign, ev.scoring)
            out.append((u, i, sc))
    return out


def event_term(ev: Event, hand: int, full: int) -> float:
    """Log-probability of ``ev``'s play if the seat held ``hand`` then."""
    opts = option_scores(ev, hand, full)
    if len(opts) <= 1:
        return 0.0
    top = max(sc for _, _, sc in opts)
    z = 0.0
    mine = top
    for u, i, sc in opts:
        z += math.exp(BETA * (sc - top))
        if u == ev.tile and i == ev.end:
            mine = sc
    return BETA * (mine - top) - math.log(z)


def log_likelihood(
    events: list[Event],
    hands: list[int],
    full: int,
    cache: dict[tuple[int, int], float] | None = None,
) -> float:
    """Log-probability of the seen plays if the seats held ``hands`` now
    (``full``: the set's mask; ``cache`` keeps the terms per (event, hand))."""
    total = 0.0
    for j, ev in enumerate(events):
        hand = hands[ev.seat] | ev.since
        if cache is None:
            total += event_term(ev, hand, full)
            continue
        key = (j, hand)
        term = cache.get(key)
        if term is None:
            term = event_term(ev, hand, full)
            cache[key] = term
        total += term
    return total


__all__ = [
    "BETA",
    "Event",
    "event_term",
    "log_likelihood",
    "option_scores",
    "play_events",
]
