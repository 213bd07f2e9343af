"""Scoring: end-sums, hand results and match ends (RULES.md §3).

Decisions where RULES.md is silent:

* A hand's *winner seat* (who opens next when the opening rule is ``winner``): the
  seat that went out; in a blocked hand, the seat of the winning side with the
  fewest pips, ties to the seat nearest the dealer's left. No winner on a tie.
* Block / Catalan / All Fives / Fives and Threes with 3 or 5 seats: a tie for the
  lowest total in a block means nobody scores, even if a third seat is higher.
* ``fives`` (002) rounds the whole hand bonus to the nearest five (002 rounds
  "the points" of the hand); ``all_fives`` rounds each loser's contribution.
  Rounding to the nearest five has no halves with whole pips (2 -> 0, 3 -> 5).
* Spider: a hand holding only the 0-0 counts 25 everywhere, in a fish too
  (RULES.md §1 points to §3.4 for "pip totals"); a fish with equal totals
  charges nobody.
* Match end with a target: the side(s) with the highest score win once any side
  reaches the target; equal highest scores share the win. Spider: the seat that
  reaches the target loses and the other seat wins.
"""

from __future__ import annotations

from typing import Any

from games.engine.options import Rules
from games.engine.tiles import PAIRS, bits, mask_pips


def end_points(scoring: str, total: int) -> int:
    """Points an end-sum is worth in a scoring variant (0 if none)."""
    if total <= 0:
        return 0
    if total % 5 == 0:
        return total
    if scoring == "fives_and_threes" and total % 3 == 0:
        return total
    return 0


def round5(x: int) -> int:
    """Nearest multiple of five, halves up (whole numbers have no halves)."""
    return 5 * ((x + 2) // 5)


def seat_pips(rules: Rules, hand: int) -> int:
    """Pips of a hand; in Spider a lone 0-0 counts 25."""
    if rules.scoring == "spider" and hand == 1:
        return 25
    return mask_pips(hand)


def _nearest_dealer(seats: list[int], dealer: int, n: int) -> int:
    return min(seats, key=lambda s: (s - dealer - 1) % n)


def score_hand(
    rules: Rules,
    hands: tuple[int, ...],
    scores: tuple[int, ...],
    reason: str,
    out_seat: int,
    dealer: int,
) -> tuple[tuple[int, ...], int, dict[str, Any]]:
    """Score a finished hand.

    Returns (new scores per side, winner seat or -1, JSON-ready breakdown).
    ``reason`` is "out" (``out_seat`` played its last tile) or "blocked".
    """
    n = rules.seats
    side_of = rules.side_of
    n_sides = rules.n_sides
    pips = [seat_pips(rules, h) for h in hands]
    side_pips = [0] * n_sides
    for s in range(n):
        side_pips[side_of[s]] += pips[s]
    scoring = rules.scoring
    deltas = [0] * n_sides
    contributions: list[dict[str, int]] = []
    winner_side = -1
    winner_seat = -1
    tie = False
    charged: list[int] | None = None

    if reason == "out":
        winner_seat = out_seat
        winner_side = side_of[out_seat]
    else:
        low = min(side_pips)
        lows = [i for i, p in enumerate(side_pips) if p == low]
        if len(lows) > 1:
            tie = True
        else:
            winner_side = lows[0]
            members = [s for s in range(n) if side_of[s] == winner_side]
            least = min(pips[s] for s in members)
            winner_seat = _nearest_dealer(
                [s for s in members if pips[s] == least], dealer, n
            )

    rounding = "exact"
    if scoring == "spider":
        charged = [0] * n
        if winner_side >= 0:
            for s in range(n):
                if side_of[s] != winner_side:
                    charged[s] = pips[s]
                    deltas[side_of[s]] += pips[s]
                    contributions.append(
                        {"side": side_of[s], "pips": pips[s], "points": pips[s]}
                    )
    elif winner_side >= 0:
        base = side_pips[winner_side] if reason == "blocked" else 0
        if scoring == "catalan" and reason == "blocked":
            total = sum(side_pips)
            contributions = [
                {"side": i, "pips": p, "points": p} for i, p in enumerate(side_pips)
            ]
        else:
            total = 0
            for i, p in enumerate(side_pips):
                if i == winner_side:
                    continue
                raw = p - base
                pts = round5(raw) if scoring == "all_fives" else raw
                contributions.append({"side": i, "pips": raw, "points": pts})
                total += pts
            if scoring == "all_fives":
                rounding = "nearest_5_each"
            elif scoring == "fives":
                total = round5(total)
                rounding = "nearest_5_total"
        deltas[winner_side] = total

    new_scores = tuple(a + b for a, b in zip(scores, deltas, strict=True))
    result: dict[str, Any] = {
        "reason": reason,
        "out_seat": out_seat if reason == "out" else None,
        "winner_seat": winner_seat if winner_seat >= 0 else None,
        "winner_side": winner_side if winner_side >= 0 else None,
        "tie": tie,
        "hands": [[list(PAIRS[t]) for t in bits(h)] for h in hands],
        "pips": pips,
        "side_pips": side_pips,
        "contributions": contributions,
        "rounding": rounding,
        "points": list(deltas),
        "penalties": scoring == "spider",
        "charged": charged,
        "scores": list(new_scores),
    }
    return new_scores, winner_seat, result


def match_winners(rules: Rules, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Winning seats if the match is over, else ``()``."""
    target = rules.options.target
    if max(scores) < target:
        return ()
    if rules.scoring == "spider":
        win_sides = {i for i, s in enumerate(scores) if s < target}
    else:
        top = max(scores)
        win_sides = {i for i, s in enumerate(scores) if s == top}
    return tuple(s for s in range(rules.seats) if rules.side_of[s] in win_sides)


def reveal(
    hands: tuple[int, ...], rules: Rules, reason: str, scores: tuple[int, ...]
) -> dict[str, Any]:
    """A breakdown without a hand bonus (the match ended mid-hand)."""
    return {
        "reason": reason,
        "out_seat": None,
        "winner_seat": None,
        "winner_side": None,
        "tie": False,
        "hands": [[list(PAIRS[t]) for t in bits(h)] for h in hands],
        "pips": [seat_pips(rules, h) for h in hands],
        "side_pips": None,
        "contributions": [],
        "rounding": "exact",
        "points": [0] * rules.n_sides,
        "penalties": rules.scoring == "spider",
        "charged": None,
        "scores": list(scores),
    }
