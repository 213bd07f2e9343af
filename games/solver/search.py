"""The double-dummy solver: a hand's result with perfect play, every tile face up.

Once every hand and the stock's order are known, the rest of a hand is a game
of perfect information (a draw takes the next tile of a known stock). This
module finds its value from any position of any variant, for every side: the
points each side makes from the position to the end of the hand along a line
of perfect play, and how that line ends (out, blocked, or the match target
reached mid-hand).

What "perfect" means (docs/review.md tells why):

* every seat plays for its *side's margin*: the points its side makes minus the
  mean of what the other sides make (``margin``; in Spider the points are
  penalties, so the sign is reversed). With two sides (two seats, or four in
  partnerships) that is a zero-sum game, solved by alpha-beta. With three to
  five sides each seat maximises its own side's margin (max^n): one value per
  position, the same from every seat's chair. Among moves of equal margin for
  the mover, the one leaving the best of the others the least is chosen, then
  a fixed order of the point vectors (``_preference``), so the value never
  depends on move ordering;
* a scoring play is always claimed (claiming dominates declining: the same
  position follows, with the points to one's own side instead of Muggins to an
  opponent's); a Muggins window already open where the search starts is called
  at once by the scorer's first opponent in turn order.

The search: alpha-beta (two sides) or max^n (more) over a ``Game`` (bit
masks: ``line.LineGame`` for the line layouts, ``layouts.LayoutGame`` for the
others, chosen by ``game_for``) with a transposition table, move ordering (the
table's best move first, then the game's own guess) and iterative deepening on
the number of tiles placed. A position is solved exactly when the node
allowance lets the depth cover every tile still to be placed; otherwise the
deepest completed depth is kept and the positions at its horizon are valued by
a greedy playout to the hand's end: a *heuristic* value, labelled so
(``Solution.exact`` false). The allowance is counted in nodes, not time, so a
result is the same on every machine.

The same search serves the hard player (``games.bots.hard.line_search``) with
its own ``Objective`` (one side's value of a line, every other seat against it:
the "paranoid" reduction, searched by alpha-beta whatever the number of sides),
its own playout policy at the horizon, and one depth per call (``scores``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from games.engine import Action, State, current_seat, legal_actions
from games.engine.actions import MUGGINS
from games.engine.options import rules_for
from games.engine.variants import LINE
from games.solver.game import Child, DealGame, Finish, Game, Points, points_add
from games.solver.layouts import LayoutGame
from games.solver.line import LineGame

DEFAULT_MAX_NODES = 200_000
START_DEPTH = 4  # the first depth of iterative deepening (tiles placed)
DEPTH_STEP = 2
EXACT = 1 << 30  # the depth tag of a table entry searched to the hand's end

_EXACT, _LOWER, _UPPER = 0, 1, 2
INF = float(1 << 60)  # alpha-beta's open window
BIG = float(1 << 62)  # worse than any value

P = TypeVar("P")


class OutOfNodes(Exception):
    """The search used up its node allowance."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The value of one position (or one option at a decision).

    ``points``: what each side makes from the position (the option included)
    to the end of the hand along a line of perfect play, in the engine's score
    units (Spider: penalty points). With two sides several lines may share the
    perfect margin; ``points`` is the one found first (in block scoring only
    one side scores, so there it is unique). ``finish``: how that line ends.
    ``exact``: false when a depth limit was hit and the leaves at its horizon
    were valued by a greedy playout (a heuristic, not perfect play);
    ``depth``: that limit in tiles placed, ``None`` when exact. ``nodes``: the
    search's work for the whole call.
    """

    points: Points
    finish: Finish
    exact: bool
    depth: int | None
    nodes: int


def gains(points: Points, penalties: bool) -> Points:
    """Points as gains: Spider's penalties count against the side charged."""
    return tuple(-p for p in points) if penalties else points


def margin(points: Points, side: int, penalties: bool = False) -> float:
    """``side``'s margin: its gain minus the mean gain of the other sides."""
    g = gains(points, penalties)
    n = len(g)
    if n < 2:
        return float(g[side])
    return g[side] - (sum(g) - g[side]) / (n - 1)


def _scaled_margins(points: Points, sign: int) -> list[int]:
    """Every side's margin times (sides - 1), in whole numbers: n·g − Σg."""
    g = [sign * p for p in points]
    total = sum(g)
    n = len(g)
    return [n * x - total for x in g]


def _preference(
    side: int, points: Points, finish: Finish, sign: int
) -> tuple[int, int, tuple[int, ...], str, int]:
    """max^n's order of lines for the mover's ``side``: its margin first, then
    the least for the best-placed other side, then a fixed order (so that the
    choice among equal lines never depends on the order they were found)."""
    m = _scaled_margins(points, sign)
    others = max(x for i, x in enumerate(m) if i != side)
    seat = -1 if finish.seat is None else finish.seat
    return (m[side], -others, tuple(-p for p in points), finish.reason, -seat)


def preferred(side: int, sols: Sequence[Solution], penalties: bool = False) -> int:
    """The index of the solution the mover's ``side`` prefers: the highest
    margin, ties broken as max^n breaks them (``_preference``)."""
    sign = -1 if penalties else 1
    return max(
        range(len(sols)),
        key=lambda j: _preference(side, sols[j].points, sols[j].finish, sign),
    )


def _joined(pts: Points, sub: Line | None, fin: Finish | None) -> Line:
    """The line of a move making ``pts``: followed by ``sub``, or ending the
    hand as ``fin``."""
    if sub is None:
        assert fin is not None
        return pts, fin
    return points_add(pts, sub[0]), sub[1]


Line = tuple[Points, Finish]


class Objective(Protocol):
    """A scalar value of lines for alpha-beta: one side (``maxing``) raises
    it, every other lowers it. A line's value is the sum of ``edge`` over its
    moves but the last, plus ``end`` of the last (the one that ends the hand)."""

    def maxing(self, side: int, /) -> bool:
        """Whether ``side`` raises the value."""
        ...

    def edge(self, pts: Points, /) -> float:
        """The value of the points of a move that does not end the hand."""
        ...

    def end(self, pts: Points, finish: Finish, /) -> float:
        """The value of the move that ends the hand (its points include the
        hand's bonus) and of how it ends."""
        ...


class SideZeroMargin:
    """Two sides: side 0's margin (``Search``'s objective for a review)."""

    def __init__(self, sign: int) -> None:
        self.sign = sign

    def maxing(self, side: int) -> bool:
        return side == 0

    def edge(self, pts: Points) -> float:
        return self.sign * (pts[0] - pts[1])

    def end(self, pts: Points, finish: Finish) -> float:
        return self.sign * (pts[0] - pts[1])


@dataclass(slots=True)
class _Entry:
    flag: int
    score: float  # the objective's value (alpha-beta); unused by max^n
    line: Line
    depth: int  # EXACT, or the depth limit it was searched with
    horizon: bool  # a heuristic leaf was met below it
    best: int  # index of the best child (move ordering)


def _settles(hit: _Entry, tag: int, alpha: float, beta: float) -> bool:
    """Whether a table entry gives the value of a node searched at depth tag
    ``tag`` in the window (``alpha``, ``beta``)."""
    if hit.depth != tag and hit.depth != EXACT:
        return False
    f, v = hit.flag, hit.score
    return f == _EXACT or (f == _LOWER and v >= beta) or (f == _UPPER and v <= alpha)


class Search(Generic[P]):
    """One deal's search: the game, its transposition table and node count.

    ``table``, ``prune`` and ``order`` switch the transposition table,
    alpha-beta's cut-offs and move ordering off (``order`` false: the game's
    own order reversed, the table's best move not tried first): for the tests,
    since none of them may change a value. ``max_nodes`` bounds the work of
    each ``values`` or ``scores`` call.

    ``objective``: alpha-beta on that value whatever the number of sides
    (default: side 0's margin with two sides, max^n with more). ``policy``: the
    move of the heuristic playouts at the horizon (default ``Game.first``);
    ``rollout``, when given, plays that policy to the hand's end in one call
    (its points, finish and steps; ``None`` where it cannot), the same line
    for less work. ``node_units``: what a searched node counts against the
    allowance, a playout step counting one (a caller whose playouts are far
    cheaper than its nodes counts the nodes dearer, so that the allowance
    follows the work).
    """

    def __init__(
        self,
        game: Game[P],
        *,
        penalties: bool = False,
        max_nodes: int = DEFAULT_MAX_NODES,
        table: bool = True,
        prune: bool = True,
        order: bool = True,
        objective: Objective | None = None,
        policy: Callable[[P], Child[P]] | None = None,
        rollout: Callable[[P], tuple[Points, Finish, int] | None] | None = None,
        node_units: int = 1,
    ) -> None:
        self.game = game
        self.sign = -1 if penalties else 1
        self.two = objective is not None or game.n_sides == 2
        self.objective: Objective = objective or SideZeroMargin(self.sign)
        self.policy = policy or game.first
        self.rollout = rollout
        self.node_units = node_units
        self.max_nodes = max_nodes
        self.use_table = table
        self.prune = prune
        self.order = order
        self.tt: dict[Hashable, _Entry] = {}
        self.leaves: dict[Hashable, Line] = {}  # playouts' lines by position
        self.nodes = 0
        self.cap = 0
        self.horizon = False
        self.zero: Points = (0,) * game.n_sides

    # ------------------------------------------------------------ entry

    def values(
        self, roots: Sequence[Child[P]], max_depth: int | None = None
    ) -> list[Solution]:
        """The value of each root move (its own points included), all at the
        same depth: iterative deepening until every one is exact, the node
        allowance is used up (the last completed depth is kept; if none
        completed, a greedy playout from each root: depth 0) or ``max_depth``
        is reached."""
        start_nodes = self.nodes
        self.cap = self.nodes + self.max_nodes
        need = max(
            (self.game.plays_left(c[2]) for c in roots if c[2] is not None), default=0
        )
        limit = need if max_depth is None else min(need, max_depth)
        depth = min(limit, START_DEPTH)
        best: list[Line] | None = None
        best_depth = 0
        exact = False
        while True:
            self.horizon = False
            try:
                lines = [self._root(c, depth) for c in roots]
            except OutOfNodes:
                break
            best, best_depth, exact = lines, depth, not self.horizon
            if exact or depth >= limit:
                break
            depth = min(limit, depth + DEPTH_STEP)
        if best is None:
            self.cap = 1 << 62  # a last resort: greedy playouts, short and bounded
            self.horizon = False
            best = [self._root(c, 0) for c in roots]
            exact = not self.horizon
        used = self.nodes - start_nodes
        return [
            Solution(pts, fin, exact, None if exact else best_depth, used)
            for pts, fin in best
        ]

    def scores(self, roots: Sequence[Child[P]], depth: int) -> list[float]:
        """The objective's value of each root move (alpha-beta), searched to
        ``depth`` tiles placed after it, within ``max_nodes`` nodes (else
        ``OutOfNodes``); ``horizon`` tells whether a heuristic leaf was met."""
        assert self.two
        self.cap = self.nodes + self.max_nodes
        self.horizon = False
        out: list[float] = []
        for c in roots:
            _, pts, pos, fin, _ = c
            if pos is None:
                assert fin is not None
                out.append(self.objective.end(pts, fin))
                continue
            v, _ = self._ab(pos, depth, -INF, INF)
            out.append(self.objective.edge(pts) + v)
        return out

    def _root(self, c: Child[P], depth: int) -> Line:
        _, pts, pos, fin, _ = c
        if pos is None:
            assert fin is not None
            return pts, fin
        if self.two:
            _, sub = self._ab(pos, depth, -INF, INF)
        else:
            sub = self._maxn(pos, depth)
        return points_add(pts, sub[0]), sub[1]

    # ------------------------------------------------------------ helpers

    def _value(self, line: Line) -> float:
        """The objective's value of a whole line (an end reached)."""
        return self.objective.end(line[0], line[1])

    def _count(self, units: int = 1) -> None:
        self.nodes += units
        if self.nodes > self.cap:
            raise OutOfNodes

    def playout(self, pos: P) -> Line:
        """The heuristic leaf: every seat plays the policy's move (default
        ``Game.first``) to the end of the hand (remembered per position); one
        node per step of the policy."""
        self.horizon = True
        game = self.game
        key = game.key(pos) if self.use_table else None
        if key is not None:
            hit = self.leaves.get(key)
            if hit is not None:
                return hit
        done = self.rollout(pos) if self.rollout is not None else None
        if done is not None:
            made, end, steps = done
            self.nodes += steps
            if self.nodes > self.cap:
                raise OutOfNodes
            if key is not None:
                self.leaves[key] = (made, end)
            return made, end
        total = self.zero
        at = pos
        policy = self.policy
        while True:
            self._count()
            _, pts, nxt, fin, _ = policy(at)
            total = points_add(total, pts)
            if nxt is None:
                assert fin is not None
                break
            at = nxt
        line = (total, fin)
        if key is not None:
            self.leaves[key] = line
        return line

    def _kids(self, pos: P, best: int) -> list[tuple[int, Child[P]]]:
        pairs = list(enumerate(self.game.children(pos)))
        if not self.order:
            pairs.reverse()
        elif 0 < best < len(pairs):
            pairs.insert(0, pairs.pop(best))
        return pairs

    def _probe(self, pos: P, depth: int) -> tuple[int, Hashable, _Entry | None]:
        """The depth tag of ``pos`` at ``depth`` (``EXACT`` when the depth
        covers every tile left), its key and a usable table entry."""
        game = self.game
        tag = EXACT if depth >= game.plays_left(pos) else depth
        if not self.use_table:
            return tag, None, None
        key = game.key(pos)
        hit = self.tt.get(key)
        return tag, key, hit

    # ------------------------------------------------------------ two sides

    def _ab(self, pos: P, depth: int, alpha: float, beta: float) -> tuple[float, Line]:
        """Fail-soft alpha-beta on the objective: (value, line)."""
        self._count(self.node_units)
        tag, key, hit = self._probe(pos, depth)
        if tag != EXACT and depth <= 0:
            line = self.playout(pos)
            return self._value(line), line
        best_i = 0
        if hit is not None:
            best_i = hit.best
            if _settles(hit, tag, alpha, beta):
                self.horizon |= hit.horizon
                return hit.score, hit.line
        outer = self.horizon
        self.horizon = False
        a0, b0 = alpha, beta
        objective = self.objective
        maxing = objective.maxing(self.game.mover_side(pos))
        best_v = -BIG if maxing else BIG
        # the best move's points and the line below it (``None``: it ended
        # the hand, with ``best_fin``); the line is built once, at the end
        best_pts: Points = self.zero
        best_sub: Line | None = None
        best_fin: Finish | None = None
        chosen = -1
        prune = self.prune
        for i, (_, pts, nxt, fin, placed) in self._kids(pos, best_i):
            sub: Line | None = None
            if nxt is None:
                assert fin is not None
                v = objective.end(pts, fin)
            else:
                c = objective.edge(pts)
                sv, sub = self._ab(nxt, depth - placed, alpha - c, beta - c)
                v = c + sv
            if maxing:
                if v > best_v:
                    best_v, best_pts, best_sub, best_fin, chosen = v, pts, sub, fin, i
                    alpha = max(alpha, v)
            elif v < best_v:
                best_v, best_pts, best_sub, best_fin, chosen = v, pts, sub, fin, i
                beta = min(beta, v)
            if prune and alpha >= beta:
                break
        assert chosen >= 0
        best_line = _joined(best_pts, best_sub, best_fin)
        below = self.horizon
        self.horizon = outer or below
        if key is not None:
            if not self.prune or a0 < best_v < b0:
                flag = _EXACT
            else:
                flag = _LOWER if best_v >= b0 else _UPPER
            self.tt[key] = _Entry(flag, best_v, best_line, tag, below, chosen)
        return best_v, best_line

    # ------------------------------------------------------------ more sides

    def _maxn(self, pos: P, depth: int) -> Line:
        """max^n: the mover's preferred line (``_preference``)."""
        self._count(self.node_units)
        tag, key, hit = self._probe(pos, depth)
        if tag != EXACT and depth <= 0:
            return self.playout(pos)
        best_i = 0
        if hit is not None:
            best_i = hit.best
            if hit.depth == tag or hit.depth == EXACT:
                self.horizon |= hit.horizon
                return hit.line
        outer = self.horizon
        self.horizon = False
        side = self.game.mover_side(pos)
        n, sign = self.game.n_sides, self.sign
        best_line: Line | None = None
        best_m = 0
        chosen = 0
        for i, (_, pts, nxt, fin, placed) in self._kids(pos, best_i):
            if nxt is None:
                assert fin is not None
                line: Line = (pts, fin)
            else:
                sub = self._maxn(nxt, depth - placed)
                line = (points_add(pts, sub[0]), sub[1])
            p = line[0]
            m = sign * (n * p[side] - sum(p))
            if (
                best_line is None
                or m > best_m
                or (
                    m == best_m
                    and _preference(side, p, line[1], sign)
                    > _preference(side, best_line[0], best_line[1], sign)
                )
            ):
                best_m, best_line, chosen = m, line, i
        assert best_line is not None
        below = self.horizon
        self.horizon = outer or below
        if key is not None:
            self.tt[key] = _Entry(_EXACT, 0, best_line, tag, below, chosen)
        return best_line


# ---------------------------------------------------------------- the API


def game_for(state: State) -> DealGame[Any]:
    """The game the search plays for ``state``'s deal: ``LineGame`` for the
    line layouts, ``LayoutGame`` for the others."""
    if rules_for(state.options).layout == LINE:
        return LineGame.of_state(state)
    return LayoutGame.of_state(state)


class DoubleDummy:
    """The double-dummy values of one deal (every tile of ``state`` known).

    ``solve(s)`` values a position ``s`` of this deal; ``option_values(s)``
    values each legal option of a decision (all at the same depth). One
    transposition table serves every call, so the options of a decision and
    the positions of one hand share their work; each call may use
    ``max_nodes`` nodes; ``max_depth`` caps the depth (tiles placed) even
    with nodes left. ``table``, ``prune``, ``order`` and ``game`` (another
    game of the deal than ``game_for``'s) are for the tests.
    """

    def __init__(
        self,
        state: State,
        *,
        max_nodes: int = DEFAULT_MAX_NODES,
        max_depth: int | None = None,
        table: bool = True,
        prune: bool = True,
        order: bool = True,
        game: DealGame[Any] | None = None,
    ) -> None:
        self.rules = rules_for(state.options)
        self.game = game if game is not None else game_for(state)
        self.max_depth = max_depth
        self.search: Search[Any] = Search(
            self.game,
            penalties=self.rules.scoring == "spider",
            max_nodes=max_nodes,
            table=table,
            prune=prune,
            order=order,
        )

    @property
    def nodes(self) -> int:
        """Nodes searched so far, every call together."""
        return self.search.nodes

    def solve(self, state: State) -> Solution:
        """The value of ``state`` (a position of this deal)."""
        return self.search.values([self.game.enter(state)], self.max_depth)[0]

    def option_values(
        self, state: State, seat: int | None = None
    ) -> list[tuple[Action, Solution]]:
        """Each legal option of ``seat`` (default: the seat to decide) at
        ``state``, valued with its own points included. A Muggins call is not
        an option here (``solve`` values an open window as called at once)."""
        if seat is None:
            seat = current_seat(state)
            if seat is None:
                return []
        acts = [a for a in legal_actions(state, seat) if a.type != MUGGINS]
        roots = [self.game.after(state, seat, a) for a in acts]
        sols = self.search.values(roots, self.max_depth)
        return list(zip(acts, sols, strict=True))


def solve(
    state: State, *, max_nodes: int = DEFAULT_MAX_NODES, max_depth: int | None = None
) -> Solution:
    """The double-dummy value of ``state`` (see the module docstring)."""
    return DoubleDummy(state, max_nodes=max_nodes, max_depth=max_depth).solve(state)


__all__ = [
    "DEFAULT_MAX_NODES",
    "DoubleDummy",
    "Finish",
    "Objective",
    "OutOfNodes",
    "Points",
    "Search",
    "SideZeroMargin",
    "Solution",
    "game_for",
    "gains",
    "margin",
    "preferred",
    "solve",
]
