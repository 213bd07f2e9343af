"""Soft inference from the opponents' choices: which sampled deals explain them.

Decision: the other seats are modelled as players who tend to shed weight, the
habit of ``medium`` and of most people: among the tiles a seat could have
played, it picks tile ``t`` with probability proportional to
``exp(BETA * (pips(t) + 3 * double(t)))``. Each sampled deal gets the
likelihood of the plays actually seen, and ``hard`` averages its search values
with these weights (importance weighting; ``BETA = 0`` turns it off). The hand a
seat held at a past play is its sampled hand plus the tiles it played since,
exact once the seat has stopped drawing, so only plays after a seat's last draw
count; the opening (forced or free) and the scoring variants (where points, not
weight, drive the play) are left out.
"""

from __future__ import annotations

import math
from typing import Any

from games.bots.board import rules_of
from games.engine.layout import attach, ends_mask, open_layout
from games.engine.state import CLOSED, End
from games.engine.tiles import IS_DOUBLE, PIPS

BETA = 0.3

Event = tuple[int, int, int, int]  # seat, tile, fit mask then, tiles played since


def _score(t: int) -> float:
    return PIPS[t] + (3.0 if IS_DOUBLE[t] else 0.0)


def play_events(view: dict[str, Any]) -> list[Event]:
    """The other seats' informative plays of the hand so far."""
    r = rules_of(view)
    if r.end_scoring or BETA == 0:
        return []
    seat: int = view["seat"]
    ends: tuple[End, ...] = ()
    spinner, spun = -1, False
    raw: list[tuple[int, int, int, int]] = []  # seat, tile, fit, log index
    last_draw = [-1] * r.seats
    plays: list[tuple[int, int, int]] = []  # index, seat, tile
    for idx, e in enumerate(view["public_state"]["log"]):
        kind = e[0]
        if kind == "play":
            s, t = e[1], e[2]
            if not ends:
                ends, spinner = open_layout(r.layout, t)
            else:
                if s != seat:
                    raw.append((s, t, ends_mask(ends), idx))
                i = next(k for k, x in enumerate(ends) if x[0] == e[3])
                ends, spinner, spun = attach(r.layout, ends, i, t, spinner, spun)
            plays.append((idx, s, t))
        elif kind == "close":
            ends = tuple(
                (x[0], x[1], x[2] | CLOSED) if x[0] in e[2] else x for x in ends
            )
        elif kind == "draw":
            last_draw[e[1]] = idx
    out: list[Event] = []
    for s, t, fit, idx in raw:
        if idx < last_draw[s]:
            continue
        since = 0
        for j, s2, t2 in plays:
            if j >= idx and s2 == s:
                since |= 1 << t2
        out.append((s, t, fit, since))
    return out


def log_likelihood(events: list[Event], hands: list[int]) -> float:
    """Log-probability of the seen plays if the seats held ``hands`` now."""
    total = 0.0
    for s, t, fit, since in events:
        options = (hands[s] | since) & fit
        z = 0.0
        m = options
        while m:
            low = m & -m
            z += math.exp(BETA * _score(low.bit_length() - 1))
            m ^= low
        total += BETA * _score(t) - math.log(z)
    return total


__all__ = ["BETA", "log_likelihood", "play_events"]
