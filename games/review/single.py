"""Single-dummy review: a decision judged by what its seat knew then.

For a decision with more than one option (a Muggins call is never one: see
``games.solver``), the value of each option is its expected margin for the seat's
side (points its side makes from the decision to the end of the hand, minus
the mean of the other sides'; partners are judged as one side) over deals of
the tiles the seat could not see:

1. deals consistent with the seat's view at that moment are drawn by the hard
   player's sampler (``games.bots.hard.deals``: the public history's limits,
   the opening's clues) and, in the line layouts, weighed by the hard player's
   inference (``games.bots.hard.inference``: how well each deal explains the
   other seats' plays by a player who chooses like ``medium``);
2. where plays were weighed, ``POOL_FACTOR`` times the deals wanted are drawn
   and ``samples`` of them are resampled in proportion to their weights
   (systematic resampling), so each solved deal counts once;
3. each deal is solved double dummy (``games.solver.DoubleDummy``) for every option,
   with ``max_nodes`` nodes per deal: exact to the end of the hand when that
   suffices, else depth-limited with a heuristic horizon (``exact`` false,
   ``depth`` the shallowest depth used);
4. the best option is the one with the highest mean; the *loss* of the chosen
   option is the best mean minus its own, with the standard error of that
   paired difference over the deals; ``labels.label_for`` names it.

Every option is valued on the same deals (common random numbers), and the
random stream of a decision is seeded from the review's ``seed``, the hand and
the decision's place in it: the same hand and seed give the same review.

In a hand that can decide the match (``match_point``: some option's mean
points bring a side to the target by the hand's end) points are the wrong
scale: ten points that win the match are worth more than thirty that do not.
There each option is valued by the seat's side's *chance of winning the match*
(``match_chance``): on a deal where the hand's end decides the match, 1 for a
win and 0 for a loss (shared on a tie); on a deal where the match goes on, the
side's share of a race to the target by the points each side still needs. The
mean over the deals is a probability, the loss a drop in it, labelled by
``labels.MATCH_THRESHOLDS`` (``scale`` ``MATCH``; elsewhere ``POINTS``). The
solver plays the hand to its end: where two sides would both pass the target
in the same hand, the one with more points at its end wins here, whoever got
there first.

A decision is *judged* (may be labelled, may be called accurate, has a best
option) only when every deal was solved to the end of the hand: a
depth-limited value (``exact`` false) is a heuristic guess of the hand's end;
it is shown as an estimate, never as a verdict: the search could not settle the
decision within its budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.bots.hard import inference
from games.bots.hard.deals import sample_deal
from games.bots.knowledge import knowledge_of
from games.engine import (
    Action,
    State,
    current_seat,
    determinize,
    legal_actions,
    view,
)
from games.engine.actions import MUGGINS
from games.engine.options import Rules, rules_for
from games.engine.scoring import match_winners
from games.engine.tiles import tile_id
from games.review.labels import label_for
from games.solver.search import DoubleDummy, margin

DEFAULT_SAMPLES = 16
DEFAULT_MAX_NODES = 4_000  # per sampled deal (every option together)
POOL_FACTOR = 8  # deals drawn and weighed per deal solved, where plays are read
LIVE = ("play", "claim", "close")
POINTS = "points"  # values in points of margin
MATCH = "match"  # values in the chance of winning the match (0-1)


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option of a decision: its mean value for the seat's side (its
    margin, or on the ``MATCH`` scale its chance of winning the match) and the
    mean points of every side, over the sampled deals."""

    action: Action
    value: float
    points: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision judged single dummy.

    ``options`` in ``legal_actions`` order; ``chosen`` and ``best`` index it.
    ``loss`` (>= 0) is the best value minus the chosen one's, ``error`` its
    standard error; ``label`` is ``labels.label_for``'s, ``None`` for a
    decision not ``judged`` (module docstring). ``samples``: deals drawn for
    the estimate, ``distinct``: the different deals among them (resampling by
    weight repeats the likely ones); ``effective``: the weighed pool's
    effective size (the deals drawn when nothing was weighed). ``exact``: every
    deal solved to the end of the hand; else ``depth`` is the shallowest
    depth limit used (tiles placed). ``match_point``: the hand can decide the
    match; ``scale``: what ``value``, ``loss`` and ``error`` count (``MATCH``
    at a match point; a stored review of an older format has match points
    valued in ``POINTS``, and those are not judged)."""

    seat: int
    side: int
    options: tuple[OptionValue, ...]
    chosen: int
    best: int
    loss: float
    error: float
    label: str | None
    samples: int
    distinct: int
    effective: float
    exact: bool
    depth: int | None
    match_point: bool
    scale: str = POINTS

    @property
    def judged(self) -> bool:
        """Whether the review gives a verdict on this decision: solved to the
        end of the hand on every deal (and a match point valued by the match)."""
        return decision_judged(
            exact=self.exact, match_point=self.match_point, scale=self.scale
        )


def decision_judged(*, exact: bool, match_point: bool, scale: str = POINTS) -> bool:
    """Whether a decision valued ``exact``ly or not, at a ``match_point`` or
    not, on ``scale``, is judged (module docstring): the one rule, for stored
    reviews too (a match point valued in points, as older reviews stored it,
    is not)."""
    return exact and (not match_point or scale == MATCH)


def match_chance(r: Rules, scores: tuple[int, ...], side: int) -> float:
    """``side``'s chance of winning the match with these ``scores`` (per side)
    at a hand's end: 1 or 0 when the match is over (shared on a tie), else
    ``side``'s share of a race to the target, each side weighed by the inverse
    of the points it still needs (Spider: by the penalties it may still
    take)."""
    winners = match_winners(r, scores)
    if winners:
        sides = {r.side_of[s] for s in winners}
        return 1.0 / len(sides) if side in sides else 0.0
    room = [max(1, r.options.target - s) for s in scores]
    spider = r.scoring == "spider"
    weights = [float(d) if spider else 1 / d for d in room]
    return weights[side] / sum(weights)


def options_of(state: State, seat: int) -> list[Action]:
    """The options a review compares: the seat's legal actions but Muggins."""
    return [a for a in legal_actions(state, seat) if a.type != MUGGINS]


def reviewable(state: State, seat: int, action: Action) -> bool:
    """Whether ``seat``'s ``action`` at ``state`` is a decision to review: the
    seat to decide, in play, with more than one option, and not a Muggins
    call."""
    return (
        state.phase in LIVE
        and current_seat(state) == seat
        and action.type != MUGGINS
        and len(options_of(state, seat)) > 1
    )


def decision_rng(seed: int, state: State, seat: int) -> random.Random:
    """The random stream of one decision: the review's seed, the hand, the
    decision's place in the hand's log and the seat."""
    return random.Random(f"review:{seed}:{state.hand_no}:{len(state.log)}:{seat}")


def _masks(
    hands: dict[int, list[tuple[int, int]]], seats: int, own: int, seat: int
) -> list[int]:
    out = [0] * seats
    out[seat] = own
    for s, tiles in hands.items():
        for a, b in tiles:
            out[s] |= 1 << tile_id(a, b)
    return out


def sample_states(
    state: State, seat: int, samples: int, rng: random.Random
) -> tuple[list[tuple[State, int]], float]:
    """``samples`` full states consistent with ``seat``'s view of ``state``
    (resampled by the inference weights where plays can be read), each with
    the number of times it was drawn, and the effective size of the pool they
    were drawn from."""
    v = view(state, seat)
    k = knowledge_of(v)
    r = rules_for(state.options)
    own = v["public_state"]["hands"][seat]
    events = inference.play_events(v)
    if not events:
        deals = [sample_deal(k, rng) for _ in range(samples)]
        return [(determinize(v, h, st), 1) for h, st in deals], float(samples)
    cache = inference.TermCache()
    pool = []
    lws = []
    for _ in range(samples * POOL_FACTOR):
        hands, stock = sample_deal(k, rng)
        masks = _masks(hands, r.seats, own, seat)
        lws.append(inference.log_likelihood(events, masks, r.full, cache))
        pool.append((hands, stock))
    top = max(lws)
    ws = [math.exp(x - top) for x in lws]
    total = sum(ws)
    effective = total * total / sum(w * w for w in ws)
    # systematic resampling: one uniform offset, then ``samples`` equal steps
    step = total / samples
    u = rng.random() * step
    counts: dict[int, int] = {}
    acc = ws[0]
    i = 0
    for _ in range(samples):
        while u > acc and i < len(ws) - 1:
            i += 1
            acc += ws[i]
        counts[i] = counts.get(i, 0) + 1
        u += step
    return [(determinize(v, *pool[i]), c) for i, c in counts.items()], effective


def review_decision(
    state: State,
    seat: int,
    action: Action,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> DecisionReview | None:
    """``seat``'s ``action`` at ``state`` judged single dummy (module
    docstring); ``None`` when it is not a decision (``reviewable``)."""
    if not reviewable(state, seat, action):
        return None
    r = rules_for(state.options)
    side = r.side_of[seat]
    spider = r.scoring == "spider"
    acts = options_of(state, seat)
    chosen = acts.index(action)
    deals, effective = sample_states(
        state, seat, samples, decision_rng(seed, state, seat)
    )
    rows: list[list[float]] = []  # margins
    chances: list[list[float]] = []  # chances of winning the match
    pts_sum = [[0.0] * r.n_sides for _ in acts]
    exact = True
    depth: int | None = None
    for deal, count in deals:
        vals = DoubleDummy(deal, max_nodes=max_nodes).option_values(deal, seat)
        assert [a for a, _ in vals] == acts
        row = []
        chance_row = []
        for j, (_, sol) in enumerate(vals):
            row.append(margin(sol.points, side, spider))
            after = tuple(s + p for s, p in zip(state.scores, sol.points, strict=True))
            chance_row.append(match_chance(r, after, side))
            for i, p in enumerate(sol.points):
                pts_sum[j][i] += count * p
            if not sol.exact:
                exact = False
                if sol.depth is not None:
                    depth = sol.depth if depth is None else min(depth, sol.depth)
        rows.extend([row] * count)
        chances.extend([chance_row] * count)
    n = len(rows)
    point = match_point(state, [[x / n for x in sums] for sums in pts_sum])
    if point:
        rows = chances
    means = [sum(row[j] for row in rows) / n for j in range(len(acts))]
    best = max(range(len(acts)), key=lambda j: (means[j], j == chosen, -j))
    loss = max(0.0, means[best] - means[chosen])
    error = _paired_error([row[best] - row[chosen] for row in rows])
    options = tuple(
        OptionValue(a, means[j], tuple(x / n for x in pts_sum[j]))
        for j, a in enumerate(acts)
    )
    scale = MATCH if point else POINTS
    return DecisionReview(
        seat=seat,
        side=side,
        options=options,
        chosen=chosen,
        best=best,
        loss=loss,
        error=error,
        label=label_for(state.options.variant, loss, error, match=point)
        if decision_judged(exact=exact, match_point=point, scale=scale)
        else None,
        samples=n,
        distinct=len(deals),
        effective=effective,
        exact=exact,
        depth=depth,
        match_point=point,
        scale=scale,
    )


def _paired_error(diffs: list[float]) -> float:
    """The standard error of the mean of ``diffs``."""
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)


def match_point(state: State, points: Iterable[Sequence[float]]) -> bool:
    """Whether the hand can decide the match: with some option's mean points
    per side (``points``, one row per option), a side reaches the target by the
    hand's end (Spider: its penalties)."""
    target = state.options.target
    return any(
        score + p >= target
        for row in points
        for score, p in zip(state.scores, row, strict=True)
    )


def review_hand(
    steps: Iterable[tuple[State, int, Action]],
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_MAX_NODES,
    seats: Iterable[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[tuple[int, DecisionReview]]:
    """Every reviewable decision of a hand's ``steps`` (each the state before
    an action, the seat and the action, as a replay of the hand's log gives
    them), as (step index, review); ``seats`` limits it to those seats.

    ``progress(done, total)``, when given, is called after each decision is
    reviewed (``total``: the decisions to review), so a caller can show how
    far the review has gone."""
    only = None if seats is None else set(seats)
    todo = [
        (i, state, seat, action)
        for i, (state, seat, action) in enumerate(steps)
        if (only is None or seat in only) and reviewable(state, seat, action)
    ]
    out = []
    for done, (i, state, seat, action) in enumerate(todo, start=1):
        rev = review_decision(
            state, seat, action, seed=seed, samples=samples, max_nodes=max_nodes
        )
        if rev is not None:
            out.append((i, rev))
        if progress is not None:
            progress(done, len(todo))
    return out


__all__ = [
    "DEFAULT_MAX_NODES",
    "DEFAULT_SAMPLES",
    "DecisionReview",
    "OptionValue",
    "decision_judged",
    "decision_rng",
    "MATCH",
    "POINTS",
    "match_chance",
    "match_point",
    "options_of",
    "review_decision",
    "review_hand",
    "reviewable",
    "sample_states",
]
