"""Soft inference from the opponents' choices: which sampled deals explain them.

Decision: the other seats are modelled as players who choose like ``medium``,
which is also how most people play (shed weight and doubles, keep tiles that
fit, do not let the next seat follow): at each of its past plays a seat picks
the play ``p`` among the ones its hand then allowed with probability
proportional to ``exp(BETA * play_score(p))``, where ``play_score`` is
``medium``'s one-move score (``games.bots.medium.play_score``) computed from
*that seat's* point of view at that moment: its hand, the tiles it could not
see then (everything not in its hand and not on the table), and what the next
seat's passes and draws, and a forced opening, had shown by then (not what the
seat's own deal told it where the opening is free: see ``knowledge``).
``option_scores`` computes that score from bit masks (``line_model``) for the
line layouts, checked against ``medium`` by the tests. Each sampled deal gets
the likelihood of the plays actually seen, and ``hard`` averages its search
values with these weights (importance weighting).

The hand a seat held at a past play is its sampled hand plus the tiles it
played since, less the tiles it drew since (``Event.draws`` of them). Which
tiles those were is partly known: a tile it holds now (or played since) that
fitted the board at one of those draws was not in its hand then, so it was
drawn later (``Event.later``, ``Event.drawn``); the rest of the draws are
spread evenly over the other tiles, and the play's probability is averaged over
those hands (up to ``MAX_PASTS`` of them). In All Fives this reads twice as
many plays as reading only those after a seat's last draw, and puts more
weight on the opponent's true tiles (``bench/inference_quality.py
all_fives``). The opening (forced or free) is left out.

In the scoring variants (``all_fives``, ``fives_and_threes``) the score
includes ``medium``'s points and "do not set up the next seat" terms, so the
ends are told apart by value *and* by being a double (a double end counts both
halves). The terms depend on the deal only through that seat's hand now, so
they are cached per (event, hand) within a decision: late in the hand many
deals share them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from dataclasses import dataclass
from typing import Any

from games.bots.board import rules_of
from games.bots.hard.line_model import counts_open_ends, line_score
from games.bots.knowledge import LogReplay, undealt
from games.engine.layout import ends_mask, playable_ends
from games.engine.state import DBL
from games.engine.tiles import IS_DOUBLE, NUM_MASK, TILE_HI, TILE_LO, bits

BETA = 3.0  # how sharply a seat prefers its best play (bench/inference_quality.py)
MAX_PASTS = 16  # hands averaged at most per past play followed by draws
IMPOSSIBLE = -30.0  # log-probability of a play the deal cannot explain


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
    blocking: bool = False  # no stock, no end-sum scoring (``line_score``)
    draws: int = 0  # tiles the seat drew after this play
    later: int = 0  # tiles fitting the board at one of those draws
    drawn: int = 0  # tiles of ``since`` surely drawn after this play


def _event(
    replay: LogReplay, e: list[Any], table: int, scoring: str | None, blocking: bool
) -> Event:
    """The event of the play ``e`` on the board ``replay`` shows before it
    (``since`` and the draws after it are filled in later)."""
    r = replay.r
    s, t = e[1], e[2]
    # The ends a play could go on, told apart by value (and, where end-sums
    # score, by being a double).
    vals: list[tuple[int, bool]] = []
    at = -1
    for x in playable_ends(replay.ends):
        key = (x[1], bool(scoring and x[2] & DBL))
        if key not in vals:
            vals.append(key)
        if x[0] == e[3]:
            at = vals.index(key)
    nxt = (s + 1) % r.seats
    return Event(
        seat=s,
        tile=t,
        end=at,
        ends=tuple(v for v, _ in vals),
        table=table,
        lacks=replay.lacks(nxt),
        sign=1.0 if r.side_of[nxt] != r.side_of[s] else -1.0,
        since=0,
        dbls=tuple(d for _, d in vals),
        scoring=scoring,
        blocking=blocking,
    )


def _with_draws(
    ev: Event,
    idx: int,
    after: list[tuple[int, int]],
    plays: list[tuple[int, int, int]],
) -> Event:
    """``ev`` (the play at log index ``idx``) with the tiles its seat played
    from it on and what its draws ``after`` it (index, fitting tiles) tell."""
    since = drawn = later = 0
    for _, m in after:
        later |= m
    for j, s2, t2 in plays:
        if j >= idx and s2 == ev.seat:
            since |= 1 << t2
            if any(idx < d < j and m >> t2 & 1 for d, m in after):
                drawn |= 1 << t2
    return dataclasses.replace(
        ev, since=since, draws=len(after), later=later, drawn=drawn
    )


def play_events(view: dict[str, Any], past_draws: bool = True) -> list[Event]:
    """The other seats' informative plays of the hand so far (line layouts;
    none elsewhere); with ``past_draws`` false, only those after the seat's last
    draw."""
    r = rules_of(view)
    if r.layout != "line":
        return []
    scoring = r.scoring if r.end_scoring else None
    blocking = counts_open_ends(r)
    seat: int = view["seat"]
    replay = LogReplay(r)
    table = 0
    raw: list[tuple[int, Event]] = []  # log index, event (``since`` unset)
    draws: list[list[tuple[int, int]]] = [[] for _ in range(r.seats)]
    plays: list[tuple[int, int, int]] = []  # index, seat, tile
    log = view["public_state"]["log"]
    for idx, e in enumerate(log):
        if e[0] == "play":
            if not replay.ends:
                started = log[0][0] == "start"
                none_of = undealt(r, log[0][1], e[2]) if started else 0
                if none_of:
                    for seat_limits in replay.limits:
                        seat_limits.append([none_of, 0])
            elif e[1] != seat:
                raw.append((idx, _event(replay, e, table, scoring, blocking)))
            table |= 1 << e[2]
            plays.append((idx, e[1], e[2]))
        elif e[0] == "draw" and replay.ends:
            draws[e[1]].append((idx, ends_mask(replay.ends)))
        replay.feed(e)
    out: list[Event] = []
    for idx, ev in raw:
        after = [(d, m) for d, m in draws[ev.seat] if d > idx]
        if after and not past_draws:
            continue
        out.append(_with_draws(ev, idx, after, plays))
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
            sc = line_score(
                u, nv, IS_DOUBLE[u], ov, od, rest, may, ev.sign, ev.scoring, ev.blocking
            )
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


def past_hands(ev: Event, now: int) -> list[int]:
    """The hands the seat may have held at ``ev`` if it holds ``now`` (each as
    likely; a sample of ``MAX_PASTS`` of them if there are more; none if the
    deal contradicts the draws)."""
    hand = now | ev.since
    if not ev.draws:
        return [hand]
    forced = (now & ev.later) | ev.drawn
    need = ev.draws - forced.bit_count()
    free = list(bits(hand & ~forced & ~(1 << ev.tile)))
    if need < 0 or need > len(free):
        return []
    base = hand & ~forced
    if math.comb(len(free), need) <= MAX_PASTS:
        picks = list(itertools.combinations(free, need))
    else:
        rng = random.Random(hand << 7 | ev.seat)
        picks = [tuple(rng.sample(free, need)) for _ in range(MAX_PASTS)]
    out = []
    for pick in picks:
        h = base
        for t in pick:
            h &= ~(1 << t)
        out.append(h)
    return out


def past_term(ev: Event, now: int, full: int) -> tuple[float, int]:
    """Log-probability of ``ev``'s play if the seat holds ``now``, averaged over
    its ``past_hands``, and the number of hands scored."""
    hands = past_hands(ev, now)
    if not hands:
        return IMPOSSIBLE, 0
    if len(hands) == 1:
        return event_term(ev, hands[0], full), 1
    terms = [event_term(ev, h, full) for h in hands]
    top = max(terms)
    mean = sum(math.exp(x - top) for x in terms) / len(terms)
    return top + math.log(mean), len(terms)


class TermCache(dict[tuple[int, int], float]):
    """``log_likelihood``'s terms per (event, hand now), and how many hands
    were scored to fill it (the work to charge)."""

    scored: int = 0


def log_likelihood(
    events: list[Event],
    hands: list[int],
    full: int,
    cache: TermCache | None = None,
) -> float:
    """Log-probability of the seen plays if the seats held ``hands`` now
    (``full``: the set's mask; ``cache`` keeps the terms per (event, hand))."""
    total = 0.0
    for j, ev in enumerate(events):
        now = hands[ev.seat]
        if cache is None:
            total += past_term(ev, now, full)[0]
            continue
        key = (j, now)
        term = cache.get(key)
        if term is None:
            term, scored = past_term(ev, now, full)
            cache[key] = term
            cache.scored += scored
        total += term
    return total


__all__ = [
    "BETA",
    "Event",
    "TermCache",
    "event_term",
    "log_likelihood",
    "option_scores",
    "past_hands",
    "past_term",
    "play_events",
]
