"""The common step of every table write: the next ``seq``, its log entry, the next
timed job, and the frames posted to ``realtime.outbox`` to go out after commit."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from prometheus_client import Counter

from games import engine
from games.errors import TableError
from games.fairness import fair_chain_ahead, table_seeding
from games.finish import table_finish
from games.groups import table_group
from games.models import Seat, Table
from games.payloads import table_frames
from games.rows import (
    event_append,
    move_write,
    table_locked,
    table_update,
    table_with_seats,
)
from games.spectators import watch_state_next, watch_state_of, watched
from games.stores import table_alias
from games.ticks import TickJob, tick_job
from games.timers import NextTimer, timer_next
from realtime import outbox

MOVES = Counter(
    "dominoes_moves_total", "Table transitions applied, by actor.", ["actor"]
)


def state_of(table: Table) -> engine.State:
    """The engine state of a table that has started (it always has one)."""
    if table.state is None:
        if table_seeding(table):
            raise TableError(
                "not_playing",
                gettext("The first hand is not dealt yet: the seeds are coming in."),
            )
        raise TableError("not_playing", gettext("This table is not in play."))
    return engine.from_json(table.state)


def state_or_none(table: Table) -> engine.State | None:
    """The engine state of a table, or None before its first deal (a waiting table,
    or a fair table waiting for its client seeds, ``games.services.seeding``)."""
    return engine.from_json(table.state) if table.state is not None else None


def table_lock(table_id: int) -> Table:
    """Load and lock the table row; call inside ``transaction.atomic``."""
    table = table_locked(table_id)
    if table is None:
        raise TableError("no_table", gettext("There is no such table."))
    return table


def table_lock_with_seats(table_id: int) -> tuple[Table, list[Seat]]:
    """Load and lock the table row with its seats (one statement on PostgreSQL);
    call inside ``transaction.atomic``."""
    found = table_with_seats(table_id, lock=True)
    if found is None:
        raise TableError("no_table", gettext("There is no such table."))
    return found


def transition(
    table: Table,
    seats: list[Seat],
    state: engine.State,
    *,
    position: int | None,
    actor: str,
    action: dict[str, Any] | None,
    fields: list[str],
    expected_seq: int | None = None,
) -> bool:
    """Save ``state`` as the next ``seq`` with its log entry, decide the next timed
    job, and post the frames and the job to the outbox. Call it while holding the
    table's row lock, or (PostgreSQL) with ``expected_seq``, the ``seq`` the move
    was decided at from an unlocked read: then it is written only if the table is
    still there, and False says it was not (nothing written or posted; a move that
    ends the match needs the lock). True when written."""
    if expected_seq is not None and state.phase == "match_over":
        raise ValueError("a match's end is written under the row lock")
    table.seq += 1
    fair_before = table.fair
    state = fair_chain_ahead(table, state)
    if table.fair is not fair_before:
        fields = [*fields, "fair"]
    before = table.state
    table.state = engine.to_json(state)
    events = list(state.events)
    shown_next = watch_state_next(table, before, table.state)
    spectated = None
    if shown_next is not table.watch_state:
        table.watch_state = shown_next
        fields = [*fields, "watch_state"]
        if watched(table):
            shown = state if shown_next is table.state else engine.from_json(shown_next)
            spectated = (shown, list(shown.events))
    update = ["seq", "state", "timer", "timer_seat", "deadline", *fields]
    if state.phase == "match_over":
        table_finish(table=table, seats=seats, state=state)
        update += ["status", "finished_at"]
    timer_set(table, timer_next(table=table, seats=seats, state=state))
    written = move_write(
        table,
        update,
        seat=position,
        actor=actor,
        action=action,
        events=events,
        expected_seq=expected_seq,
    )
    if not written:
        return False
    MOVES.labels(actor).inc()
    frames_post(table, seats, state, events, spectated=spectated)
    return True


def change(
    table: Table,
    seats: list[Seat],
    state: engine.State | None,
    *,
    position: int | None,
    actor: str = "player",
    timer: NextTimer | None = None,
    fields: Sequence[str] = (),
    events: Sequence[dict[str, Any]] = (),
) -> None:
    """Seats, timer or status changed without a move: the next ``seq`` all the same,
    with a log entry without an action (replay skips it) holding ``events``, and the
    frames and job posted as for a move. ``timer`` None keeps the current job and
    its deadline."""
    table.seq += 1
    event_append(
        table=table,
        seq=table.seq,
        seat=position,
        actor=actor,
        action=None,
        events=list(events),
    )
    if timer is not None:
        timer_set(table, timer)
    table_update(table, ["seq", "timer", "timer_seat", "deadline", *fields])
    frames_post(table, seats, state, [])


def frames_post(
    table: Table,
    seats: list[Seat],
    state: engine.State | None,
    events: list[dict[str, Any]],
    *,
    spectated: tuple[engine.State | None, list[dict[str, Any]]] | None = None,
) -> None:
    """Hand the outbox this ``seq``'s frames and the timed job that follows them.

    ``spectated``: what spectators are shown, with its events, when it changed at
    this ``seq``; otherwise the state they were already shown, without events (or
    the players' state before the first move, ``games.spectators``). No frame goes
    to spectators while nobody may be watching."""
    watchers = watched(table)
    if watchers and spectated is None and table.watch_state is not None:
        spectated = (watch_state_of(table), [])
    frames = table_frames(
        table=table,
        seats=seats,
        state=state,
        events=events,
        spectated=spectated,
        watchers=watchers,
    )
    outbox.post(
        seq=table.seq,
        group=table_group(table.pk),
        frames=frames,
        job=job_of(table, seats),
        using=table_alias(),
    )


def job_of(table: Table, seats: Sequence[Seat]) -> TickJob | None:
    """The Celery task for the job recorded on the row, if any: none for a turn
    clock, which the clock sweep runs out (``games.sweep.clocks_due_tick``). Every
    job but a hard computer's move is light enough for the socket server that
    queues it to run itself (``games.local_ticks``): a hard computer thinks for a
    tenth of a second or more, which a worker's thread does, not a server's."""
    if not table.timer or table.deadline is None or table.timer == Table.Timer.CLOCK:
        return None
    heavy = (
        table.timer == Table.Timer.BOT
        and table.timer_seat is not None
        and seats[table.timer_seat].bot_level == Seat.BotLevel.HARD
    )
    return tick_job(table.pk, table.seq, table.deadline, local=not heavy)


def timer_set(table: Table, timer: NextTimer) -> None:
    """Record the next timed job on the row (the caller saves it)."""
    table.timer = timer.kind
    table.timer_seat = timer.seat
    table.deadline = (
        timezone.now() + timedelta(seconds=timer.delay) if timer.due else None
    )
