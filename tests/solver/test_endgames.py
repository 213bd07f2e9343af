"""The solver on small hand-made endgames of every layout and seat count,
against a brute force written plainly here; its node allowance and its
transposition table.

The brute force walks ``games.engine.apply`` over every legal action (claims
always claimed, no Muggins: the solver's conventions), with no pruning, no
table and no ordering: minimax on side 0's margin for two sides, max^n with the
solver's documented tie-break for more.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Action, State, apply, legal_actions, new_match, options_for
from games.engine.options import rules_for
from games.solver import DoubleDummy, Finish, Search, solve
from games.solver.game import unbounded
from games.solver.line import LineGame
from tests.support.positions import rig

Pair = tuple[int, int]
LIVE = ("play", "claim", "close")


# ---------------------------------------------------------------- brute force


def _moves(s: State) -> list[Action]:
    return [
        a
        for a in legal_actions(s, s.turn)
        if a.type != "muggins" and not (s.phase == "claim" and a.type == "continue")
    ]


def _made(after: State, before: State) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(after.scores, before.scores, strict=True))


def _sign(s: State) -> int:
    return -1 if s.options.variant == "spider" else 1


def minimax(s: State) -> int:
    """Two sides: side 0's margin from ``s`` on under perfect play."""
    if s.phase not in LIVE:
        return 0
    side0 = rules_for(s.options).side_of[s.turn] == 0
    vals = []
    for a in _moves(s):
        nxt = apply(s, s.turn, a)
        pts = _made(nxt, s)
        vals.append(_sign(s) * (pts[0] - pts[1]) + minimax(nxt))
    return max(vals) if side0 else min(vals)


Line = tuple[tuple[int, ...], str, int]


def _finish(s: State) -> tuple[str, int]:
    res = s.hand_result or {}
    out = res.get("out_seat")
    return res.get("reason", "over"), -1 if out is None else out


def maxn(s: State) -> Line:
    """More sides: each mover maximises its side's margin; ties go to the least
    margin for the best-placed other side, then a fixed order (points, how the
    hand ends, the seat out)."""
    if s.phase not in LIVE:
        return ((0,) * len(s.scores), *_finish(s))
    side = rules_for(s.options).side_of[s.turn]
    sign = _sign(s)
    best: tuple[Any, ...] | None = None
    best_line: Line | None = None
    for a in _moves(s):
        nxt = apply(s, s.turn, a)
        sub, reason, out = maxn(nxt)
        pts = tuple(x + y for x, y in zip(_made(nxt, s), sub, strict=True))
        g = [sign * p for p in pts]
        m = [len(g) * x - sum(g) for x in g]
        others = max(x for i, x in enumerate(m) if i != side)
        key = (m[side], -others, tuple(-p for p in pts), reason, -out)
        if best is None or key > best:
            best, best_line = key, (pts, reason, out)
    assert best_line is not None
    return best_line


# ---------------------------------------------------------------- endgames


def _deal(
    variant: str,
    hands: list[list[Pair]],
    stock: list[Pair],
    forced: Pair,
    moves: list[tuple[Pair, str] | None] = (),  # type: ignore[assignment]
    **opts: Any,
) -> State:
    """A hand-made deal, ``forced`` opening, then ``moves`` (None: draw or
    pass, whichever is legal) played in turn."""
    s = rig(variant, hands, stock=stock, forced=forced, **opts)
    for m in moves:
        seat = s.turn
        if m is None:
            (a,) = [x for x in legal_actions(s, seat) if x.type in ("draw", "pass")]
        else:
            a = Action.play(*m)
        s = apply(s, seat, a)
        if s.phase == "claim":
            s = apply(s, seat, Action.claim(s.pending))
    return unbounded(s)


ENDGAMES: dict[str, State] = {
    # The line: Block for two, with tiles set aside.
    "block-2": _deal(
        "block",
        [[(6, 6), (1, 6), (1, 2), (0, 0)], [(2, 6), (0, 1), (3, 4), (4, 6)]],
        [(5, 5), (2, 2)],
        (6, 6),
    ),
    # Block for five: max^n with five sides.
    "block-5": _deal(
        "block",
        [
            [(6, 6), (1, 2)],
            [(1, 6), (0, 0)],
            [(2, 6), (3, 3)],
            [(0, 1), (4, 6)],
            [(2, 4), (5, 6)],
        ],
        [],
        (6, 6),
    ),
    # Draw for three: draws until a tile fits.
    "draw-3": _deal(
        "draw",
        [[(6, 6), (0, 1)], [(2, 3), (1, 6)], [(4, 4), (0, 6)]],
        [(3, 6), (1, 1), (2, 6)],
        (6, 6),
    ),
    # All Fives in partnerships: claims, one tile drawn, the last two kept.
    "all_fives-4p": _deal(
        "all_fives",
        [[(5, 5), (0, 5)], [(0, 0), (2, 3)], [(1, 4), (3, 5)], [(2, 2), (0, 1)]],
        [(4, 6), (1, 1), (3, 3)],
        (5, 5),
        partnership=True,
    ),
    "fives_and_threes-3": _deal(
        "fives_and_threes",
        [[(3, 3), (0, 3), (1, 2)], [(3, 6), (0, 0), (2, 4)], [(1, 3), (6, 6), (0, 4)]],
        [(5, 5), (1, 1), (2, 2)],
        (3, 3),
    ),
    "catalan-2": _deal(
        "catalan",
        [[(6, 6), (1, 6), (2, 3)], [(3, 6), (1, 1), (0, 2)]],
        [(1, 3), (0, 6), (2, 2)],
        (6, 6),
    ),
    # The Cross: the four arms filled first.
    "cross-2": _deal(
        "cross",
        [[(5, 5), (1, 5), (0, 2), (3, 6)], [(2, 5), (0, 5), (1, 3), (4, 4)]],
        [(3, 5), (1, 2), (6, 6)],
        (5, 5),
    ),
    "cross-3": _deal(
        "cross",
        [[(4, 4), (1, 4), (0, 0)], [(2, 4), (1, 2), (3, 3)], [(0, 4), (3, 4), (1, 1)]],
        [(2, 2), (0, 1)],
        (4, 4),
    ),
    # Grand Cross, past its arms: a double played on an arm branches.
    "grand_cross-2": _deal(
        "grand_cross",
        [
            [(6, 6), (2, 6), (2, 2), (1, 2), (0, 3)],
            [(0, 6), (3, 6), (4, 6), (0, 0), (2, 5)],
        ],
        [(1, 1), (0, 2)],
        (6, 6),
        moves=[((6, 6), "root"), ((0, 6), "n"), ((2, 6), "e"), ((3, 6), "s")],
    ),
    # Fives: the first double is the spinner, its short sides open once both
    # long sides are covered; end-sums score at once.
    "fives-2": _deal(
        "fives",
        [[(5, 5), (0, 5), (2, 3), (1, 4)], [(3, 5), (0, 0), (4, 5), (2, 2)]],
        [(1, 1), (0, 4)],
        (5, 5),
    ),
    "fives-4": _deal(
        "fives",
        [[(5, 5), (1, 2)], [(0, 5), (3, 3)], [(4, 5), (0, 0)], [(1, 5), (2, 4)]],
        [(0, 4), (2, 5)],
        (5, 5),
    ),
    # Spider: several doubles in one move, doubles closed or not.
    "spider-2": _deal(
        "spider",
        [[(1, 1), (2, 2), (3, 3), (1, 2)], [(1, 3), (0, 0), (4, 4), (1, 4)]],
        [(0, 1), (2, 4)],
        (1, 1),
        moves=[((1, 1), "root")],
    ),
}


def _explained(s: State) -> str:
    return f"{s.options.variant} {s.options.seats} seats"


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_an_endgame_is_solved_exactly(name: str) -> None:
    s = ENDGAMES[name]
    r = rules_for(s.options)
    sol = solve(s)
    assert sol.exact and sol.depth is None, _explained(s)
    g = [_sign(s) * p for p in sol.points]
    if r.n_sides == 2:
        assert g[0] - g[1] == minimax(s), name
    else:
        pts, reason, out = maxn(s)
        assert sol.points == pts, name
        assert sol.finish == Finish(reason, None if out < 0 else out), name


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_every_option_of_an_endgame_is_valued_exactly(name: str) -> None:
    s = ENDGAMES[name]
    r = rules_for(s.options)
    seat = s.turn
    opts = DoubleDummy(s).option_values(s)
    assert [a for a, _ in opts] == _moves(s) or s.phase == "claim"
    for a, sol in opts:
        nxt = apply(s, seat, a)
        made = _made(nxt, s)
        assert sol.exact
        if r.n_sides == 2:
            want = _sign(s) * (made[0] - made[1]) + minimax(nxt)
            g = [_sign(s) * p for p in sol.points]
            assert g[0] - g[1] == want, (name, a)
        else:
            pts, _, _ = maxn(nxt)
            assert sol.points == tuple(x + y for x, y in zip(made, pts, strict=True)), (
                name,
                a,
            )


def test_the_endgames_cover_every_layout_and_seat_count() -> None:
    layouts = {rules_for(s.options).layout for s in ENDGAMES.values()}
    assert layouts == {"line", "cross", "grand_cross", "spinner", "spider"}
    assert {s.options.seats for s in ENDGAMES.values()} == {2, 3, 4, 5}
    # more than two sides (max^n) in the line, the cross and the spinner
    many = {
        rules_for(s.options).layout
        for s in ENDGAMES.values()
        if rules_for(s.options).n_sides > 2
    }
    assert many == {"line", "cross", "spinner"}


# ---------------------------------------------------------------- budget, table


def _openings() -> list[State]:
    out = []
    for variant, seats in (
        ("block", 4),
        ("draw", 2),
        ("all_fives", 3),
        ("cross", 2),
        ("fives", 3),
        ("spider", 2),
    ):
        out.append(new_match(options_for(variant, seats=seats), 11))
    return out


@pytest.mark.parametrize("s", _openings(), ids=_explained)
def test_the_node_allowance_gives_the_same_result_twice(s: State) -> None:
    """The allowance is counted in nodes: two solves of a position too large
    for it give the same (depth-limited) solution, work included."""
    once = DoubleDummy(s, max_nodes=3_000).option_values(s)
    again = DoubleDummy(s, max_nodes=3_000).option_values(s)
    assert once == again
    assert all(not sol.exact and sol.depth is not None for _, sol in once)
    # a larger allowance searches deeper (or the same depth, never shallower)
    more = DoubleDummy(s, max_nodes=30_000).option_values(s)
    for (_, x), (_, y) in zip(once, more, strict=True):
        assert y.exact or (y.depth or 0) >= (x.depth or 0)


@pytest.mark.parametrize("s", _openings(), ids=_explained)
def test_the_table_changes_no_result(s: State) -> None:
    """At a fixed depth, with and without the transposition table: the same
    values (two sides: the margin, which alpha-beta fixes; more: the points,
    which max^n's tie-break fixes)."""
    r = rules_for(s.options)
    with_table = DoubleDummy(s, max_nodes=10**7, max_depth=4).option_values(s)
    without = DoubleDummy(s, max_nodes=10**7, max_depth=4, table=False).option_values(s)
    for (a, x), (b, y) in zip(with_table, without, strict=True):
        assert a == b
        assert x.depth == y.depth == 4
        if r.n_sides == 2:
            sign = -1 if r.scoring == "spider" else 1
            assert sign * (x.points[0] - x.points[1]) == sign * (
                y.points[0] - y.points[1]
            )
        else:
            assert x.points == y.points
    for name, e in ENDGAMES.items():
        x, y = solve(e), DoubleDummy(e, table=False).solve(e)
        if rules_for(e.options).n_sides == 2:
            assert x.points[0] - x.points[1] == y.points[0] - y.points[1], name
        else:
            assert (x.points, x.finish) == (y.points, y.finish), name


def test_the_table_is_used() -> None:
    """The same solve with the table takes fewer nodes than without."""
    s = ENDGAMES["cross-2"]
    with_table = DoubleDummy(s)
    with_table.solve(s)
    without = DoubleDummy(s, table=False)
    without.solve(s)
    assert with_table.nodes < without.nodes


def test_a_search_runs_out_of_nodes_where_it_says() -> None:
    """``Search.scores`` (one depth, the hard player's call) raises past its
    allowance and is exact when it completes."""
    from games.solver import OutOfNodes

    s = ENDGAMES["block-2"]
    game = LineGame.of_state(s)
    root = game.enter(s)
    tiny = Search(game, max_nodes=2)
    with pytest.raises(OutOfNodes):
        tiny.scores([root], 99)
    full = Search(game, max_nodes=10**6)
    (v,) = full.scores([root], 99)
    assert not full.horizon
    assert v == minimax(s)


class _SeatZero:
    """Side 0's points against every other side's (a ``games.solver.Objective``
    for any number of sides)."""

    def maxing(self, side: int) -> bool:
        return side == 0

    def edge(self, pts: tuple[int, ...]) -> float:
        return pts[0] * len(pts) - sum(pts)

    def end(self, pts: tuple[int, ...], finish: Finish) -> float:
        return self.edge(pts)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("block", 2), ("block", 4), ("draw", 3), ("all_fives", 2), ("catalan", 4)],
)
def test_the_greedy_rollout_is_the_greedy_policy_played_out(
    variant: str, seats: int
) -> None:
    """``LineGame.greedy_rollout`` (one loop, in place) gives the line and the
    step count of ``greedy`` played step by step, and so does a search's leaf
    with and without it."""
    import random

    from games.solver.game import over
    from tests.support.positions import advance

    o = options_for(variant, seats=seats)
    checked = 0
    for seed in range(30):
        s = advance(new_match(o, seed), 1 + seed % 9, seed)
        if over(s) or s.phase != "play" or not s.played or s.muggins is not None:
            continue
        game = LineGame.of_state(s)
        pos = game.position(s)
        total = (0,) * game.n_sides
        steps = 0
        at = pos
        while True:
            steps += 1
            _, pts, nxt, fin, _ = game.greedy(at)
            total = tuple(a + b for a, b in zip(total, pts, strict=True))
            if nxt is None:
                break
            at = nxt
        assert game.greedy_rollout(pos) == (total, fin, steps), (variant, seed)
        root = [(None, (0,) * game.n_sides, pos, None, 0)]
        plain = Search(game, objective=_SeatZero(), policy=game.greedy, max_nodes=10**6)
        fast = Search(
            game,
            objective=_SeatZero(),
            policy=game.greedy,
            rollout=game.greedy_rollout,
            max_nodes=10**6,
        )
        depth = random.Random(seed).randrange(0, 4)
        assert plain.scores(root, depth) == fast.scores(root, depth)
        assert plain.nodes == fast.nodes
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("cross", 3), ("grand_cross", 2), ("fives", 2), ("spider", 2), ("draw", 2)],
)
def test_first_is_the_first_child(variant: str, seats: int) -> None:
    """A heuristic playout's move (``first``, which builds one move where it
    can) is the move ordering's first on every position of random hands."""
    import random

    from games.solver import game_for
    from games.solver.game import over, settle

    o = options_for(variant, seats=seats, set_max=6)
    checked = 0
    for seed in range(6):
        s = new_match(o, seed)
        rng = random.Random(seed)
        while not over(s):
            s = unbounded(settle(rules_for(o), s))
            if over(s):
                break
            game = game_for(s)
            pos = game.position(s)
            assert game.first(pos) == game.children(pos)[0]
            checked += 1
            acts = [a for a in legal_actions(s, s.turn) if a.type != "muggins"]
            s = apply(s, s.turn, rng.choice(acts))
    assert checked > 50
