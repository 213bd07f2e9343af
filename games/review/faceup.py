"""The face-up line: every step of a finished hand valued double dummy.

For each step of the hand (the state before an action, the seat, the action),
``face_up_line`` gives the result with perfect play from that position, every
tile known (the points each side makes to the end of the hand, and how it
ends), the result of the action taken, and whether the action *changed* it:
whether the mover's side gave up margin against the best option. The whole
hand shares one ``games.solver.DoubleDummy`` (one deal), so the later positions
reuse the work of the earlier ones. A value that needed a depth limit says so
(``Solution.exact``); a step is marked as a change only when every option was
valued exactly: a depth-limited comparison is a heuristic guess, never a
verdict.

The face-up line knows what no player knew: it is the hand's truth, not a
judgement of the decisions (``single`` is that).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Action, State, apply, current_seat
from games.engine.actions import MUGGINS
from games.engine.options import rules_for
from games.solver.search import (
    DEFAULT_MAX_NODES,
    DoubleDummy,
    Solution,
    margin,
    preferred,
)

LIVE = ("play", "claim", "close")


@dataclass(frozen=True, slots=True)
class FaceUpStep:
    """One step of the face-up line.

    ``before``: the position's value with perfect play (the best option's);
    ``after``: the value of the action taken, its own points included (for a
    Muggins call out of turn: the position after it, plus the call's points);
    ``best``: the options as good as the best for the mover's side (empty
    where the seat had no choice); ``loss``: the mover side's margin given
    up; ``changed``: the action lost margin (see the module docstring)."""

    index: int
    seat: int
    action: Action
    before: Solution
    after: Solution
    best: tuple[Action, ...]
    loss: float
    changed: bool


def face_up_line(
    steps: Sequence[tuple[State, int, Action]],
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_depth: int | None = None,
) -> list[FaceUpStep]:
    """The face-up line of one hand's ``steps`` (states of one deal, in
    order, as a replay of the hand's log gives them; steps outside the hand's
    play, such as ``next_hand``, are skipped)."""
    live = [
        (i, st, seat, a) for i, (st, seat, a) in enumerate(steps) if st.phase in LIVE
    ]
    if not live:
        return []
    r = rules_for(live[0][1].options)
    spider = r.scoring == "spider"
    dd = DoubleDummy(live[0][1], max_nodes=max_nodes, max_depth=max_depth)
    out = []
    for i, st, seat, action in live:
        side = r.side_of[seat]
        if action.type == MUGGINS or current_seat(st) != seat:
            out.append(_out_of_turn(dd, i, st, seat, action))
            continue
        vals = dd.option_values(st, seat)
        margins = [margin(sol.points, side, spider) for _, sol in vals]
        top = max(margins)
        taken = next(j for j, (a, _) in enumerate(vals) if a == action)
        loss = top - margins[taken]
        exact = all(sol.exact for _, sol in vals)
        best_j = preferred(side, [sol for _, sol in vals], spider)
        out.append(
            FaceUpStep(
                index=i,
                seat=seat,
                action=action,
                before=vals[best_j][1],
                after=vals[taken][1],
                best=tuple(
                    a for (a, _), m in zip(vals, margins, strict=True) if m == top
                )
                if len(vals) > 1
                else (),
                loss=loss,
                changed=loss > 0 and exact,
            )
        )
    return out


def _out_of_turn(
    dd: DoubleDummy, i: int, st: State, seat: int, action: Action
) -> FaceUpStep:
    """A Muggins call (out of turn): valued, never judged."""
    before = dd.solve(st)
    nxt = apply(st, seat, action)
    rest = dd.solve(nxt)
    made = tuple(a - b for a, b in zip(nxt.scores, st.scores, strict=True))
    after = Solution(
        tuple(a + b for a, b in zip(made, rest.points, strict=True)),
        rest.finish,
        rest.exact,
        rest.depth,
        rest.nodes,
    )
    return FaceUpStep(i, seat, action, before, after, (), 0.0, False)


__all__ = ["FaceUpStep", "face_up_line"]
