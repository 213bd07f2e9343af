"""Deals of the unseen tiles consistent with everything public (determinization).

``Root``: what a search knows of its own seat at the decision (the knowledge,
the rules, its seat, side and hand); ``sample_deal`` / ``deal_masks`` /
``sample_state``: one deal of the hidden tiles, as tile pairs, as bit masks
(the line searches) or as a full engine state (the engine playouts);
``root_plays``: the candidate plays of a line in the line searches' form.

A deal is drawn by shuffling the unseen tiles and filling the most
constrained seat first, skipping the tiles it surely lacks (from its passes);
the rest is the stock in the shuffled order. Limits that still allow some tiles
of a mask (a pass followed by draws) are checked after the deal and the deal is
rejected if it breaks one (up to ``_REJECT`` times), and so is a deal that
leaves a seat without any of the tiles it must hold (``Knowledge.musts``, from
the opening): with one hidden hand (two seats) the result is exactly uniform
over the consistent deals, since skipping excluded tiles and rejecting are both
uniform-preserving. If rejection keeps
failing, the limits are enforced greedily while dealing (``_ATTEMPTS`` times;
slightly biased), and only then dropped rather than never answering. With
several hidden hands the sequential fill is not exactly uniform (PIMC tolerates
it); it never contradicts a pass or a draw unless every attempt failed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.board import hand_mask, rules_of
from games.bots.knowledge import Knowledge, Limit, fits, knowledge_of
from games.engine import Action, State, determinize
from games.engine.options import Rules
from games.engine.state import DBL
from games.engine.tiles import IS_DOUBLE, PAIRS, TILE_HI, TILE_LO, bits, tile_id

_ATTEMPTS = 12
_REJECT = 24

Deal = tuple[dict[int, list[tuple[int, int]]], list[tuple[int, int]]]


def _fill(
    pool: list[int], need: int, lim: tuple[Limit, ...], greedy: bool
) -> tuple[list[int], list[int]] | None:
    """Deal ``need`` tiles to one seat from ``pool`` (in its order), or ``None``.

    Tiles a limit forbids outright (allowance 0) are skipped: that keeps the
    deal uniform among the allowed tiles. The other limits (allowance left by
    draws) are either checked afterwards (``greedy`` false: rejection, exact)
    or enforced greedily while dealing (biased towards the allowance, used only
    after rejection failed)."""
    taken = [0] * len(lim)
    got: list[int] = []
    rest: list[int] = []
    for t in pool:
        if len(got) < need and fits(lim, t, taken if greedy else None):
            got.append(t)
            for i, (m, _) in enumerate(lim):
                if m >> t & 1:
                    taken[i] += 1
        else:
            rest.append(t)
    if len(got) < need:
        return None
    if not greedy:
        for i, (_, allow) in enumerate(lim):
            if taken[i] > allow:
                return None
    return got, rest


def _holds(hand: list[int], mask: int) -> bool:
    """Whether ``hand`` holds a tile of ``mask``."""
    return any(mask >> t & 1 for t in hand)


def sample_deal(k: Knowledge, rng: random.Random) -> Deal:
    """Hidden hands (per other seat) and the stock, consistent with ``k``."""
    pool = list(bits(k.unseen))
    others = [s for s in range(len(k.counts)) if s != k.seat]
    order = sorted(
        others, key=lambda s: -sum(1 + 100 // (1 + a) for _, a in k.limits[s])
    )
    loose = any(a > 0 for s in others for _, a in k.limits[s]) or any(
        k.must(s) for s in others
    )
    tries = (_REJECT if loose else 0) + _ATTEMPTS
    for attempt in range(tries + 1):
        rng.shuffle(pool)
        strict = attempt < tries
        greedy = attempt >= (_REJECT if loose else 0)
        left = pool
        hands: dict[int, list[int]] = {}
        ok = True
        for s in order:
            lim = k.limits[s] if strict else ()
            dealt = _fill(left, k.counts[s], lim, greedy)
            if dealt is None or (
                strict and k.must(s) and not _holds(dealt[0], k.must(s))
            ):
                ok = False
                break
            hands[s], left = dealt
        if ok:
            return (
                {s: [PAIRS[t] for t in h] for s, h in hands.items()},
                [PAIRS[t] for t in left],
            )
    raise ValueError("no deal fits the view")  # unreachable: the last try is free


def sample_state(view: dict[str, Any], k: Knowledge, rng: random.Random) -> State:
    """A full engine state: the view plus one sampled deal of the hidden tiles."""
    hands, stock = sample_deal(k, rng)
    return determinize(view, hands, stock)


def deal_masks(
    k: Knowledge, rng: random.Random, seats: int, seat: int, own: int
) -> tuple[list[int], tuple[int, ...]]:
    """One sampled deal as hand bitmasks per seat and the stock's tiles."""
    dealt, stock_pairs = sample_deal(k, rng)
    hands = [0] * seats
    hands[seat] = own
    for s, tiles in dealt.items():
        for p in tiles:
            hands[s] |= 1 << tile_id(*p)
    return hands, tuple(tile_id(*p) for p in stock_pairs)


@dataclass(frozen=True, slots=True)
class Root:
    """The searching seat at the decision: what it knows, the rules, its seat,
    its side and its hand (a bit mask)."""

    k: Knowledge
    r: Rules
    seat: int
    side: int
    own: int

    def deal(self, rng: random.Random) -> tuple[list[int], tuple[int, ...]]:
        """One sampled deal as ``deal_masks`` gives it."""
        return deal_masks(self.k, rng, self.r.seats, self.seat, self.own)


def root_of(view: dict[str, Any]) -> Root:
    """The ``Root`` of a view."""
    r = rules_of(view)
    seat: int = view["seat"]
    return Root(knowledge_of(view), r, seat, r.side_of[seat], hand_mask(view))


RootPlay = tuple[int, int, bool, int, bool, bool]


def root_plays(view: dict[str, Any], cands: list[Action]) -> list[RootPlay]:
    """Each candidate play on a line as (tile, the end value it leaves and
    whether a double, the other end and its flag, whether it opens the line)."""
    ends = [(e[0], e[1], bool(e[2] & DBL)) for e in view["public_state"]["ends"]]
    out: list[RootPlay] = []
    for a in cands:
        assert a.tile is not None
        t = tile_id(*a.tile)
        d = IS_DOUBLE[t]
        if not ends:
            out.append((t, TILE_LO[t], d, TILE_HI[t], d, True))
            continue
        i = 0 if ends[0][0] == a.end else 1
        ev = ends[i][1]
        nv = TILE_HI[t] if TILE_LO[t] == ev else TILE_LO[t]
        _, ov, od = ends[1 - i]
        out.append((t, nv, d, ov, od, False))
    return out


__all__ = [
    "Deal",
    "Root",
    "RootPlay",
    "deal_masks",
    "root_of",
    "root_plays",
    "sample_deal",
    "sample_state",
]
