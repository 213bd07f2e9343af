"""The timed jobs of a table: a computer player's move, the stand-in playing for a seat
whose clock ran out, the start of the next hand, the first deal of a fair table."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from games import engine
from games.bot_host import machine_speed
from games.bots import choose as bot_choose
from games.errors import TableError
from games.groups import table_group
from games.models import Seat, Table
from games.rows import table_update, table_with_seats
from games.services.seeding import seeded_deal
from games.services.transitions import (
    job_of,
    state_of,
    table_lock_with_seats,
    timer_set,
    transition,
)
from games.stores import table_alias, table_store
from games.timers import seat_is_automatic, timer_next
from realtime import outbox

STANDIN_LEVEL = "medium"  # RULES.md §4: the stand-in for a player whose clock ran out
# A timed job arriving this early (clock skew between machines) is re-queued instead.
EARLY_TOLERANCE = timedelta(milliseconds=300)


@dataclass(frozen=True)
class _Decision:
    """A computer player's action, decided from the table as it stood at ``seq``
    for the job ``timer`` of seat ``position`` played at ``level`` (action None:
    it lets a window pass)."""

    seq: int
    timer: str
    position: int
    level: str
    action: engine.Action | None


def table_tick(*, table_id: int, seq: int) -> bool:
    """Run the timed job the table was waiting for at ``seq``; False if stale.

    The job is a computer player's move (or a Muggins call), the stand-in bot playing
    for a seat whose clock ran out (which then stays away until its owner acts), the
    start of the next hand, or the first deal of a fair table whose seeds are late.

    A computer player thinks (the hard level for a tenth of a second or more) from
    an unlocked read, outside any transaction: on SQLite a write transaction holds
    the whole database. The decision is then applied under the row lock only if the
    table still waits for the same job at the same ``seq``; otherwise it is dropped,
    and whatever changed the table has queued the job that follows.
    """
    with table_store(table_id) as alias:
        read = _tick_decide(table_id=table_id, seq=seq)
        decision = read.decision if read is not None else None
        if read is not None and _tick_unlocked(read):
            return True
        with transaction.atomic(using=alias):
            return _tick_apply(table_id=table_id, seq=seq, decision=decision)


@dataclass(frozen=True)
class _Read:
    """A decision with the table, seats and state it was decided from."""

    decision: _Decision
    table: Table
    seats: list[Seat]
    state: engine.State


def _tick_unlocked(read: _Read) -> bool:
    """Write a computer player's plain move without the row lock (PostgreSQL): the
    write checks that the table is still at the decision's ``seq``
    (``transition(expected_seq=...)``), so a move the lock would have refused is
    not written and the locked path below decides again. Only a computer seat's
    move that changes no seat and does not end the match: a clock running out marks
    the seat away, and a match's end settles coins, both under the lock. Two
    statements instead of six: the read the decision came from, and the write."""
    decision, table = read.decision, read.table
    if (
        connection.vendor != "postgresql"
        or decision.action is None
        or table.timer != Table.Timer.BOT
        or not read.seats[decision.position].is_bot
    ):
        return False
    new_state = engine.apply(read.state, decision.position, decision.action)
    if new_state.phase == "match_over":
        return False
    return transition(
        table,
        read.seats,
        new_state,
        position=decision.position,
        actor="bot",
        action=engine.action_to_dict(decision.action),
        fields=[],
        expected_seq=decision.seq,
    )


def _tick_due(table: Table | None, seq: int) -> bool:
    """Whether ``table`` still waits for its job at ``seq``."""
    return (
        table is not None
        and table.seq == seq
        and table.status == Table.Status.PLAYING
        and bool(table.timer)
    )


def _tick_actor(seat: Seat) -> tuple[str, str]:
    """Who plays a seat's timed job (actor) and at which bot level."""
    if seat.is_bot:
        return "bot", seat.bot_level
    # A seat whose clock ran out is played by the stand-in and is away from now on.
    return ("standin" if seat_is_automatic(seat) else "clock"), STANDIN_LEVEL


def _tick_decide(*, table_id: int, seq: int) -> _Read | None:
    """The computer player's decision for the job at ``seq``, from an unlocked
    read; None when the job is not a seat's, is not due yet or is stale."""
    found = table_with_seats(table_id, lock=False)
    if found is None:
        return None
    table, seats = found
    if not _tick_due(table, seq):
        return None
    if table.timer == Table.Timer.NEXT_HAND or table.timer_seat is None:
        return None
    if table.deadline and timezone.now() + EARLY_TOLERANCE < table.deadline:
        return None
    seat = seats[table.timer_seat]
    _, level = _tick_actor(seat)
    state = state_of(table)
    action = bot_action(table=table, state=state, position=seat.position, level=level)
    decision = _Decision(
        seq=seq, timer=table.timer, position=seat.position, level=level, action=action
    )
    return _Read(decision=decision, table=table, seats=seats, state=state)


def _job_again(table: Table, seats: list[Seat]) -> None:
    """Queue the table's recorded job again after commit, with no frame to send."""
    outbox.post(
        seq=table.seq,
        group=table_group(table.pk),
        frames=(),
        job=job_of(table, seats),
        using=table_alias(),
    )


def _tick_apply(*, table_id: int, seq: int, decision: _Decision | None) -> bool:
    """In the table store's transaction, apply the job at ``seq`` under the row
    lock, with the computer player's
    ``decision`` for a seat's job; a seat's job without a decision that fits it
    is left to the tick that decides it (the one re-queued, or the next)."""
    try:
        table, seats = table_lock_with_seats(table_id)
    except TableError:
        return False
    if not _tick_due(table, seq):
        return False
    if table.deadline and timezone.now() + EARLY_TOLERANCE < table.deadline:
        _job_again(table, seats)
        return False
    if table.timer == Table.Timer.DEAL:
        seeded_deal(table, seats)
        return True
    state = state_of(table)
    if table.timer == Table.Timer.NEXT_HAND:
        new_state = engine.apply(state, 0, engine.Action.next_hand())
        transition(
            table,
            seats,
            new_state,
            position=None,
            actor="server",
            action={"type": "next_hand"},
            fields=[],
        )
        return True
    assert table.timer_seat is not None  # a seat's job names its seat
    seat = seats[table.timer_seat]
    actor, level = _tick_actor(seat)
    if decision is None or decision != replace(
        decision, seq=seq, timer=table.timer, position=seat.position, level=level
    ):
        # Decided for another job (a Muggins window passed at this seq meanwhile)
        # or not at all (it came due between the read and the lock): the job is
        # queued again and its task decides it afresh.
        _job_again(table, seats)
        return False
    if actor == "clock":
        # The clock and then the whole bank ran out (the job's deadline is both).
        seat.away = True
        fields = ["away"]
        if table.bank_seconds:
            seat.bank_ms = 0
            fields.append("bank_ms")
        seat.save(update_fields=fields)
    action = decision.action
    if action is None:
        # A computer opponent let a Muggins window pass: only the pending job
        # changes, so the seq stays (a new one would make the player's move in
        # flight stale) and the job is queued again for the same seq.
        timer_set(
            table, timer_next(table=table, seats=seats, state=state, muggins=False)
        )
        table_update(table, ["timer", "timer_seat", "deadline"])
        _job_again(table, seats)
        return False
    new_state = engine.apply(state, seat.position, action)
    transition(
        table,
        seats,
        new_state,
        position=seat.position,
        actor=actor,
        action=engine.action_to_dict(action),
        fields=[],
    )
    return True


def bot_action(
    *, table: Table, state: engine.State, position: int, level: str
) -> engine.Action | None:
    """A computer player's decision from its seat's view only, seeded for replay.

    None only when the seat is not to move and lets an out-of-turn window pass.
    """
    legal = engine.legal_actions(state, position)
    rng = random.Random(f"{table.seed}:{table.seq}:{position}")
    speed = machine_speed() if level == "hard" else 1.0
    choice = bot_choose(
        level, engine.view(state, position), legal, rng, machine_speed=speed
    )
    if choice is None and engine.current_seat(state) != position:
        return None
    return choice if choice in legal else legal[0]
