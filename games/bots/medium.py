"""``medium``: sound one-move heuristics, no look-ahead.

Each legal play gets a score; the best is played (ties: the first in the engine's
order, so the choice is deterministic). The terms, in pips-like units:

* going out beats everything;
* shed weight: the tile's pips, and a bonus for a double (doubles fit only one
  number, so they are played early);
* keep tiles that fit: up to three tiles of the hand that will still fit the
  board (so the seat is not forced to draw or pass next turn);
* block: a large bonus when the next seat is an opponent known to lack every
  number the play leaves open (from its passes and draws), a small bonus per
  unseen tile that can no longer follow; the reverse for a partner;
* no stock (``block``): a seat that cannot follow passes, so it also counts
  half a point per own tile on each open number and two per double of an open
  number it holds (a free move that keeps the ends as they are);
* scoring variants: three times the points the play makes, minus one and a half
  times the most the next opponent could score on the board it leaves with any
  tile it may hold ("do not set up the next seat");
* Spider: a bonus for getting rid of the 0-0, which costs 25 when held alone.

It always claims and always calls Muggins. Spider's close phase: close the
doubles just laid whose number it holds no more of (the end could only serve the
opponent), otherwise close nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.board import Board, after_play, board_of, fit_mask, hand_mask, points
from games.bots.interface import ThinkingBot
from games.bots.knowledge import Knowledge, knowledge_of
from games.engine import Action
from games.engine.actions import CLOSE, CONTINUE, PLAY, PLAY_DOUBLES
from games.engine.layout import playable_ends
from games.engine.options import Rules
from games.engine.tiles import (
    IS_DOUBLE,
    MAX_PIPS,
    NUM_MASK,
    PIPS,
    bits,
    tile_id,
)
from games.engine.variants import STOCK_NONE

GOING_OUT = 1_000_000.0
W_DOUBLE = 4.0
W_KEEP = 1.5
W_BLOCK = 8.0
W_NARROW = 2.0
W_POINTS = 3.0
W_THREAT = 1.5
W_DOUBLE_BLANK = 8.0
W_OPEN_TILES = 0.5
W_OPEN_DOUBLE = 2.0
DOUBLE_OF = tuple(tile_id(v, v) for v in range(MAX_PIPS + 1))


def threat(board: Board, tiles: int) -> int:
    """Most end-sum points one play of any of ``tiles`` could make on ``board``."""
    if not board.rules.end_scoring:
        return 0
    best = 0
    for eid, v, _ in playable_ends(board.ends):
        for u in bits(tiles & NUM_MASK[v]):
            p = points(after_play(board, u, eid))
            if p > best:
                best = p
    return best


def counts_open_ends(r: Rules) -> bool:
    """Whether ``medium`` counts its tiles on the open numbers: no stock to
    draw from and no end-sum scoring (``block``)."""
    return r.stock == STOCK_NONE and not r.end_scoring


def open_ends_term(values: list[int], hand: int) -> float:
    """Without a stock: ``W_OPEN_TILES`` per tile of ``hand`` on each open
    number (``values``, one per end) and ``W_OPEN_DOUBLE`` per open number whose
    double ``hand`` holds."""
    tiles = sum((hand & NUM_MASK[v]).bit_count() for v in values)
    doubles = sum(hand >> DOUBLE_OF[v] & 1 for v in set(values))
    return W_OPEN_TILES * tiles + W_OPEN_DOUBLE * doubles


def play_score(
    action: Action, hand: int, board: Board, k: Knowledge, seat: int
) -> float:
    """The heuristic value of one play (``play`` or ``play_doubles``)."""
    r = board.rules
    if action.type == PLAY:
        assert action.tile is not None and action.end is not None
        steps = [(tile_id(*action.tile), action.end)]
    else:
        steps = [(tile_id(*p), e) for p, e in action.plays]
    nb = board
    score = 0.0
    made = 0
    for t, e in steps:
        nb = after_play(nb, t, e)
        hand &= ~(1 << t)
        score += PIPS[t] + (W_DOUBLE if IS_DOUBLE[t] else 0.0)
        if r.scoring == "spider" and t == 0:
            score += W_DOUBLE_BLANK
        made = points(nb)
    if hand == 0:
        return GOING_OUT + score
    fit = fit_mask(nb)
    score += W_KEEP * min(3, (hand & fit).bit_count())
    if counts_open_ends(r):
        score += open_ends_term([v for _, v, _ in playable_ends(nb.ends)], hand)
    nxt = (seat + 1) % r.seats
    foe = r.side_of[nxt] != r.side_of[seat]
    sign = 1.0 if foe else -1.0
    may_hold = k.unseen & ~k.lacks(nxt)
    follow = may_hold & fit
    if k.counts[nxt] > 0 and not follow:
        score += sign * W_BLOCK
    score -= sign * W_NARROW * follow.bit_count()
    if r.end_scoring:
        score += W_POINTS * made
        score -= sign * W_THREAT * threat(nb, may_hold)
    return score


def ranked_plays(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The plays of ``legal``, best first by ``play_score`` (stable)."""
    plays = [a for a in legal if a.type in (PLAY, PLAY_DOUBLES)]
    if len(plays) <= 1:
        return plays
    board = board_of(view)
    k = knowledge_of(view)
    hand = hand_mask(view)
    seat = view["seat"]
    scored = [(play_score(a, hand, board, k, seat), i) for i, a in enumerate(plays)]
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [plays[i] for _, i in scored]


def close_choice(view: dict[str, Any], legal: list[Action]) -> Action:
    """Spider: close the new doubles whose number the hand no longer shows."""
    hand = hand_mask(view)
    ends = {e[0]: e[1] for e in view["public_state"]["ends"]}
    want = tuple(
        sorted(
            e
            for e in view["public_state"]["to_close"]
            if not hand & NUM_MASK[ends.get(e, 0)]
        )
    )
    for a in legal:
        if a.type == CLOSE and a.ends == want:
            return a
    return next((a for a in legal if a.type == CONTINUE), legal[0])


@dataclass(frozen=True)
class MediumBot(ThinkingBot):
    """One-move heuristics (see the module docstring)."""

    level: str = "medium"

    def think(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action:
        """The best action by the heuristics."""
        if view["phase"] == "close":
            return close_choice(view, legal)
        plays = ranked_plays(view, legal)
        return plays[0] if plays else legal[0]
