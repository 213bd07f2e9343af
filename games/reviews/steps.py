"""One hand's steps from a table's log: what ``games.review`` reviews.

The table's deal and log are replayed through the engine (``games.replay``), so
the steps are exactly what was played: for every logged action of hand ``n``
taken while the hand was in play, the state before it, the seat and the action,
with the log's number of the entry (the replay viewer finds the move by it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import engine
from games.models import Table
from games.replay import replay_start, replay_walk

LIVE = ("play", "claim", "close")
OVER = ("hand_over", "match_over")


@dataclass
class HandSteps:
    """Hand ``hand`` of a table: its ``steps`` (state before, seat, action),
    ``seqs[i]`` the log entry of step ``i``, and whether the hand ended
    (``finished``; a table abandoned mid-hand leaves it unfinished)."""

    hand: int
    steps: list[tuple[engine.State, int, engine.Action]] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    finished: bool = False


def hand_steps(*, table: Table, hand: int) -> HandSteps:
    """The steps of hand ``hand`` of ``table`` (empty for a hand never dealt)."""
    out = HandSteps(hand=hand)
    start = replay_start(table)
    if start is None or hand < 1:
        return out
    state = start
    for record, after in replay_walk(table, start):
        if record.action is not None and state.hand_no == hand and state.phase in LIVE:
            seat = 0 if record.seat is None else record.seat
            out.steps.append((state, seat, engine.parse_action(record.action)))
            out.seqs.append(record.seq)
        if after.hand_no == hand and after.phase in OVER:
            out.finished = True
            break
        if after.hand_no > hand:
            break
        state = after
    return out


def hands_finished(*, table: Table) -> int:
    """How many hands of ``table`` have ended, from its stored state (no replay):
    every hand before the current one, and the current one once it is over."""
    if table.state is None:
        return 0
    number = int(table.state.get("hand_no") or 0)
    phase = table.state.get("phase")
    return number if phase in OVER else max(0, number - 1)
