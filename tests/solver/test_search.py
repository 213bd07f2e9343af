"""The double-dummy solver against brute force over ``games.engine.apply``.

Every variant, every seat count on the double-6 set: the solver's value of
small positions of random play (late in the hand, a few hundred brute-force
nodes each) equals plain minimax (two sides) or plain max^n (more sides) over
every legal option, exactly; with the transposition table, alpha-beta's
cut-offs or move ordering switched off it is the same again, and with the
engine's own states as the game; the bit-mask games (the line, and every other
layout) agree with the engine's states move for move.
"""

from __future__ import annotations

import ast
import random
from functools import cache
from pathlib import Path

import pytest

from games.engine import Action, State, apply, legal_actions, new_match, options_for
from games.engine.options import Options, options_every, rules_for
from games.engine.scoring import score_hand
from games.engine.tiles import tile_id
from games.solver.game import Finish, finish_of
from games.solver.line import LineGame
from games.solver.scoring import hand_points
from games.solver.search import DoubleDummy, Solution, game_for, margin, solve
from tests.solver.brute import (
    call_open_muggins,
    far,
    margin0,
    maxn,
    root,
    small_positions,
    successors,
    tiles_left,
)
from tests.solver.engine_game import StateGame
from tests.support.positions import advance, rig

CONFIGS = [o for o in options_every() if o.set_max == 6]
LIVE = ("play", "claim", "close")
PER_CONFIG = 8
CAP = 150  # brute-force nodes per position at most


def _id(o: Options) -> str:
    return f"{o.variant}-{o.seats}{'p' if o.partnership else ''}"


@cache
def _positions(o: Options) -> tuple[State, ...]:
    return tuple(small_positions(o, PER_CONFIG, CAP, seed=7))


def _spider(s: State) -> bool:
    return s.options.variant == "spider"


def _brute(s: State) -> tuple[int, tuple[int, ...] | None, Finish | None]:
    """(side 0's margin, the points and finish where they are unique)."""
    r = rules_for(s.options)
    start = root(s)
    base = far(s)
    if r.n_sides == 2:
        return margin0(start, base), None, None
    made = tuple(a - b for a, b in zip(start.scores, base.scores, strict=True))
    pts, reason, out = maxn(start)
    pts = tuple(a + b for a, b in zip(made, pts, strict=True))
    g = [-p if _spider(s) else p for p in pts]
    return g[0] - g[1], pts, Finish(reason, None if out < 0 else out)


def _check(
    s: State, sol: Solution, want: tuple[int, tuple[int, ...] | None, Finish | None]
) -> None:
    m, pts, fin = want
    g = [-p if _spider(s) else p for p in sol.points]
    assert sol.exact and sol.depth is None
    assert g[0] - g[1] == m
    if pts is not None:
        assert sol.points == pts
        assert sol.finish == fin
    if not rules_for(s.options).end_scoring and len(sol.points) == 2:
        # block scoring: one side scores, so the points follow from the margin
        assert sorted(g) in ([0, abs(m)], [0, 0]) or _spider(s)


@pytest.mark.parametrize("o", CONFIGS, ids=_id)
def test_the_solver_equals_brute_force(o: Options) -> None:
    for s in _positions(o):
        want = _brute(s)
        _check(s, solve(s), want)
        _check(s, DoubleDummy(s, table=False, prune=False, order=False).solve(s), want)
        _check(s, DoubleDummy(s, game=StateGame(s)).solve(s), want)


@pytest.mark.parametrize("o", CONFIGS[::3], ids=_id)
def test_each_option_equals_brute_force(o: Options) -> None:
    """Every legal option of the decision, valued at once on one table."""
    for s in _positions(o)[:4]:
        seat = s.turn
        opts = DoubleDummy(s).option_values(s)
        base = far(s)
        # a window still open after the option is called at once (the
        # solver's convention at the way in)
        kids = [call_open_muggins(c) for c in successors(base)]
        acts = [a for a in legal_actions(s, seat) if a.type != "muggins"]
        assert [a for a, _ in opts] == acts
        for (_, sol), kid in zip(opts, kids, strict=True):
            r = rules_for(s.options)
            if r.n_sides == 2:
                g = [-p if _spider(s) else p for p in sol.points]
                assert g[0] - g[1] == margin0(kid, base)
            else:
                pts, _, _ = maxn(kid)
                made = tuple(
                    a - b for a, b in zip(kid.scores, base.scores, strict=True)
                )
                assert sol.points == tuple(
                    a + b for a, b in zip(made, pts, strict=True)
                )


def test_a_single_winning_play_is_found() -> None:
    """Only 0-1 on the blank end wins; the heavier plays, which the game's own
    ordering tries first, lose."""
    s = rig(
        "block", [[(0, 1), (1, 1), (0, 5), (5, 5)], [(3, 4), (3, 5), (4, 5), (0, 6)]]
    )
    s = s.copy()
    s.ends = (("left", 1, 0), ("right", 0, 0))
    s.played = 8
    dd = DoubleDummy(s)
    opts = {(a.tile, a.end): sol for a, sol in dd.option_values(s)}
    win = opts.pop(((0, 1), "right"))
    assert win.points == (15, 0)
    assert all(sol.points[1] > 0 for sol in opts.values())
    assert dd.solve(s).points == (15, 0)
    game = LineGame.of_state(s)
    first = game.children(game.position(s))[0][0]
    assert first != tile_id(0, 1)  # the ordering's guess is wrong: the search is not


def test_a_depth_limit_is_labelled_heuristic() -> None:
    o = options_for("draw", seats=2)
    s = new_match(o, 5)
    sol = DoubleDummy(s, max_depth=3).solve(s)
    assert not sol.exact and sol.depth == 3
    starved = DoubleDummy(s, max_nodes=10).solve(s)
    assert not starved.exact and starved.depth == 0
    late = _positions(o)[0]
    assert DoubleDummy(late, max_nodes=10_000).solve(late).exact


def test_the_node_allowance_bounds_the_work() -> None:
    s = new_match(options_for("block", seats=4, partnership=True), 3)
    dd = DoubleDummy(s, max_nodes=2_000)
    sol = dd.solve(s)
    # the last completed depth, then at most the allowance plus the playouts of
    # the horizon found while the last depth ran out
    assert sol.nodes <= 2_000 + 1 and not sol.exact


@pytest.mark.parametrize(
    "variant",
    [
        "block",
        "draw",
        "all_fives",
        "fives_and_threes",
        "catalan",
        "cross",
        "grand_cross",
        "fives",
        "spider",
    ],
)
def test_the_bit_mask_game_moves_like_the_engine(variant: str) -> None:
    """Each move of the bit-mask game is one of the engine's, with the same
    points, the same end and the same next position. Some engine moves are one
    here: plays on two ends alike (mirror plays on a line, the empty arms of a
    Cross), and the draws (then the pass) of a seat that draws until a tile
    fits."""
    rng = random.Random(variant)
    seat_counts = (2,) if variant == "spider" else (2, 3, 4)
    for seats in seat_counts:
        o = options_for(
            variant, seats=seats, partnership=variant == "catalan" and seats == 4
        )
        for s in small_positions(o, 4, 200, seed=rng.randrange(10_000)):
            s = call_open_muggins(far(s))
            if s.phase not in ("play", "close"):
                continue
            line, states = game_for(s), StateGame(s)
            mine = {
                (c[1], c[3], None if c[2] is None else line.key(c[2]), c[4])
                for c in line.children(line.position(s))
            }
            theirs: set[tuple[object, ...]] = set()
            for c in states.children(s):
                nxt = (
                    None
                    if c[2] is None
                    else _drawn(c[2], s.turn, c[0] == Action.draw())
                )
                live = nxt is None or nxt.phase in ("play", "close")
                fin = c[3] if live else finish_of(nxt)
                if not live:
                    assert nxt is not None
                    pts = tuple(
                        a - b for a, b in zip(nxt.scores, s.scores, strict=True)
                    )
                    theirs.add((pts, fin, None, c[4]))
                    continue
                key = None if nxt is None else line.key(line.position(nxt))
                theirs.add((c[1], fin, key, c[4]))
            assert mine == theirs


@pytest.mark.parametrize(
    ("variant", "seats", "partners"),
    [
        ("block", 2, False),
        ("block", 4, True),
        ("draw", 2, False),
        ("draw", 3, False),
        ("all_fives", 2, False),
        ("fives_and_threes", 4, True),
        ("catalan", 2, False),
        ("cross", 2, False),
        ("grand_cross", 3, False),
        ("fives", 2, False),
        ("spider", 2, False),
    ],
)
def test_the_bit_mask_game_agrees_with_the_engine_mid_hand(
    variant: str, seats: int, partners: bool
) -> None:
    """Deeper than brute force reaches: the two games give the same value
    (positions late in random hands on the double-6 set, fewer tiles left off
    the line, where the engine's states are dearer)."""
    o = options_for(variant, seats=seats, partnership=partners, set_max=6)
    r = rules_for(o)
    left = 13 if r.layout == "line" else 11 if r.n_sides == 2 else 9
    compared = 0
    for seed in range(6):
        # the first position of a random hand with ``left`` tiles or fewer to
        # place, else the first of its last eight steps that the engine's
        # states solve exactly within their allowance
        s = new_match(o, seed)
        line = []
        while s.phase in LIVE:
            line.append(s)
            s = advance(s, 1, 100 * seed + len(line))
        near = [x for x in line if tiles_left(x) <= left][:1] or line[-8:]
        for s in near:
            states = DoubleDummy(s, game=StateGame(s), max_nodes=15_000).solve(s)
            if states.exact:
                break
        else:
            continue
        bits = DoubleDummy(s).solve(s)
        assert bits.exact
        assert margin(bits.points, 0) == margin(states.points, 0)
        if r.n_sides > 2 or not r.end_scoring:
            assert bits.points == states.points
        compared += 1
    assert compared >= 2


def _drawn(s: State, seat: int, drew: bool) -> State:
    """``s`` once ``seat`` has drawn until a tile fits (and passed if none
    did), where it draws until one fits (``drew``: it has begun)."""
    while s.phase == "play" and s.turn == seat:
        legal = legal_actions(s, seat)
        if legal == [Action.draw()] and rules_for(s.options).stock == "until":
            s, drew = apply(s, seat, legal[0]), True
        elif legal == [Action.pass_()] and drew:
            s = apply(s, seat, legal[0])
        else:
            break
    return s


def test_hand_points_are_the_engines() -> None:
    rng = random.Random(1)
    for variant, seats, partnership in [
        ("block", 2, False),
        ("block", 4, True),
        ("all_fives", 3, False),
        ("all_fives", 4, True),
        ("fives_and_threes", 2, False),
        ("catalan", 4, True),
        ("catalan", 3, False),
        ("fives", 3, False),
        ("spider", 2, False),
        ("cross", 4, False),
    ]:
        o = options_for(variant, seats=seats, partnership=partnership)
        r = rules_for(o)
        for _ in range(200):
            tiles = list(range(28))
            rng.shuffle(tiles)
            if variant == "spider" and rng.random() < 0.3:
                tiles.remove(0)
                tiles.insert(0, 0)  # a lone 0-0 counts 25
            hands = tuple(
                sum(1 << t for t in tiles[i * 3 : i * 3 + rng.randrange(4)])
                for i in range(seats)
            )
            out = rng.choice([-1, *range(seats)])
            if out >= 0:
                hands = tuple(0 if i == out else h for i, h in enumerate(hands))
            zero = (0,) * r.n_sides
            want, _, _ = score_hand(
                r, hands, zero, "out" if out >= 0 else "blocked", out, 0
            )
            assert hand_points(r, hands, out) == want


def test_an_open_muggins_window_is_called_at_once() -> None:
    s = rig(
        "all_fives",
        [[(0, 5), (2, 3), (4, 4)], [(1, 1), (2, 2), (6, 6)]],
        stock=[(0, 0), (1, 2), (3, 3)],
    )
    s = s.copy()
    s.ends = (("left", 5, 0), ("right", 0, 0))
    s.played = 3
    s = apply(s, 0, Action.play((0, 5), "right"))  # 5 + 5 = 10
    assert s.phase == "claim"
    s = apply(s, 0, Action.continue_())
    assert s.muggins == (0, 10)
    sol = solve(s)
    after = apply(s, 1, Action.muggins())
    rest = solve(after)
    assert sol.points == (rest.points[0], rest.points[1] + 10)


def test_margin_reads_penalties_and_sides() -> None:
    assert margin((10, 4), 0) == 6
    assert margin((10, 4), 1, penalties=True) == 6
    assert margin((9, 0, 3), 1) == -6


@pytest.mark.parametrize("package", ["solver", "review"])
def test_the_package_is_pure(package: str) -> None:
    """No Django, no other app: like the engine and the bots."""
    forbidden = {
        "django",
        "channels",
        "celery",
        "economy",
        "matchmaking",
        "leagues",
        "accounts",
        "ops",
        "config",
        "realtime",
    }
    root = Path(__file__).resolve().parents[2] / "games" / package
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in forbidden, (path.name, name)
                allowed = ("engine", "solver")
                if package == "review":
                    allowed = ("engine", "bots", "solver", "review")
                assert not name.startswith("games.") or name.split(".")[1] in (
                    allowed
                ), (path.name, name)
