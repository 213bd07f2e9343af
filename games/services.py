"""Table writes: create (empty, or started with every seat taken), seat, start, act,
tick, presence, back, leave (``table_leave``, ``seat_leave``), cancel.

Every change runs in one transaction that locks the table row (``select_for_update``),
saves the table as the next ``seq`` with a ``TableEvent`` (a move, or an empty entry
for a change of seats or status), decides the next timed job, and posts the seats'
and spectators' views with that job to ``realtime.outbox``, which sends them after
commit. A table created with every seat taken (``tables_seated_create``) is a new row
nobody sees before the commit, so it takes no lock. Finishing a table is
``games.finish``.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from prometheus_client import Counter

from games import engine
from games.bot_host import machine_speed
from games.bots import choose as bot_choose
from games.errors import TableError
from games.finish import table_finish
from games.leaving import leave_handler
from games.models import Seat, Table, TableEvent
from games.payloads import table_frames
from games.presence import seat_sockets_count
from games.rows import (
    event_append,
    row_insert,
    table_locked,
    table_read,
    table_seating_locked,
    table_seats,
    table_update,
)
from games.signals import table_cancelled
from games.speeds import BOT_SPEEDS, DEFAULT_SPEED
from games.ticks import TickJob, tick_job
from games.timers import NOTHING, NextTimer, seat_is_automatic, timer_next
from realtime import outbox

logger = logging.getLogger(__name__)

MOVES = Counter(
    "dominoes_moves_total", "Table transitions applied, by actor.", ["actor"]
)

DEFAULT_CLOCK_SECONDS = 30
STANDIN_LEVEL = "medium"  # RULES.md §4: the stand-in for a player whose clock ran out
# A timed job arriving this early (clock skew between machines) is re-queued instead.
EARLY_TOLERANCE = timedelta(milliseconds=300)


# --- creating and seating


def _options_build(variant: str, overrides: Mapping[str, Any]) -> engine.Options:
    try:
        return engine.options_for(variant, **dict(overrides))
    except engine.InvalidOptions as exc:
        raise TableError(
            "bad_options", exc.text.render(gettext), field=exc.option
        ) from None
    except TypeError:
        raise TableError(
            "bad_options", gettext("Unknown option for this variant.")
        ) from None


def _team_of(options: engine.Options, position: int) -> int | None:
    return position % 2 if options.partnership else None


@transaction.atomic
def table_practice_create(
    *,
    user: User,
    variant: str,
    options: Mapping[str, Any] | None = None,
    bot_levels: Sequence[str],
    bot_speed: str = DEFAULT_SPEED,
) -> Table:
    """A practice table: the player in seat 0, computer players in the others, started.

    ``bot_levels`` gives the level of seats 1..n-1. Practice tables have no turn clock.
    """
    opts = _options_build(variant, options or {})
    if len(bot_levels) != opts.seats - 1:
        computers = opts.seats - 1
        raise TableError(
            "bad_options",
            ngettext(
                "Choose a level for the computer player.",
                "Choose a level for each of the %(count)d computer players.",
                computers,
            )
            % {"count": computers},
        )
    if any(level not in Seat.BotLevel.values for level in bot_levels):
        raise TableError(
            "bad_options", gettext("Computer levels are easy, medium or hard.")
        )
    if bot_speed not in BOT_SPEEDS:
        raise TableError("bad_options", gettext("Unknown computer speed."))
    table: Table = Table.objects.create(
        mode=Table.Mode.PRACTICE,
        variant=opts.variant,
        options=opts.to_dict(),
        host=user,
        seed=secrets.randbits(63),
        clock_seconds=None,
        bot_delay_ms=BOT_SPEEDS[bot_speed],
        hand_pause_seconds=0,
    )
    Seat.objects.bulk_create(
        [Seat(table=table, position=0, team=_team_of(opts, 0), user=user)]
        + [
            Seat(table=table, position=i, team=_team_of(opts, i), bot_level=level)
            for i, level in enumerate(bot_levels, start=1)
        ]
    )
    _start(table, table_seats(table))
    return table


def table_create(
    *,
    mode: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    host: User | None = None,
    clock_seconds: int | None = DEFAULT_CLOCK_SECONDS,
    bot_speed: str = DEFAULT_SPEED,
    hand_pause_seconds: int = 15,
) -> Table:
    """A waiting table with empty seats, for people (friend rooms, online tables).

    One INSERT, atomic by itself: no transaction or savepoint of its own."""
    if mode not in Table.Mode.values or mode == Table.Mode.PRACTICE:
        raise TableError("bad_options", gettext("Unknown table mode."))
    opts = _options_build(variant, options or {})
    if clock_seconds is not None and not 5 <= clock_seconds <= 300:
        raise TableError("bad_options", gettext("The turn clock is 5 to 300 seconds."))
    return row_insert(
        Table(
            mode=mode,
            variant=opts.variant,
            options=opts.to_dict(),
            host=host,
            seed=secrets.randbits(63),
            clock_seconds=clock_seconds,
            bot_delay_ms=BOT_SPEEDS[bot_speed],
            hand_pause_seconds=hand_pause_seconds,
        )
    )


@dataclass(frozen=True, slots=True)
class SeatTaker:
    """Who takes one seat of a table created full: a player or a computer player.

    ``name`` is a simulated player's generated name (shown with a computer label).
    """

    user: User | None = None
    bot_level: str = ""
    simulated: bool = False
    name: str = ""


SEATED_MODES = (Table.Mode.ONLINE, Table.Mode.FRIEND)


def _takers_check(opts: engine.Options, takers: Sequence[SeatTaker]) -> None:
    """The refusals of ``seat_join`` and ``table_start``, for every seat at once."""
    if len(takers) > opts.seats:
        raise TableError("table_full", gettext("This table is full."))
    if len(takers) < opts.seats:
        raise TableError(
            "not_full", gettext("Every seat must be taken before the start.")
        )
    users = [t.user.pk for t in takers if t.user is not None]
    if len(set(users)) != len(users):
        raise TableError(
            "already_seated", gettext("A player can hold only one seat of a table.")
        )
    for taker in takers:
        if (taker.user is None) == (not taker.bot_level):
            raise TableError(
                "bad_seat", gettext("A seat holds a player or a computer player.")
            )
        if taker.bot_level and taker.bot_level not in Seat.BotLevel.values:
            raise TableError(
                "bad_seat", gettext("Computer levels are easy, medium or hard.")
            )
        if taker.name and not taker.simulated:
            raise TableError(
                "bad_seat", gettext("Only a simulated player carries a name.")
            )


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table for ``tables_seated_create``: its shape, and seat ``i`` taken by
    ``seats[i]``. The fields are ``table_create``'s, and mean the same."""

    mode: str
    variant: str
    seats: Sequence[SeatTaker]
    options: Mapping[str, Any] | None = None
    host: User | None = None
    clock_seconds: int | None = DEFAULT_CLOCK_SECONDS
    bot_speed: str = DEFAULT_SPEED
    hand_pause_seconds: int = 15


@dataclass(frozen=True, slots=True)
class _Dealt:
    """A planned table built in memory, dealt, with its seats and first log entry."""

    table: Table
    seats: list[Seat]
    state: engine.State
    events: list[dict[str, Any]]


def _seated_build(plan: TablePlan) -> _Dealt:
    """Check ``plan`` (``TableError`` if refused) and deal its table in memory."""
    if plan.mode not in SEATED_MODES:
        raise TableError("bad_options", gettext("Unknown table mode."))
    opts = _options_build(plan.variant, plan.options or {})
    clock = plan.clock_seconds
    if clock is not None and not 5 <= clock <= 300:
        raise TableError("bad_options", gettext("The turn clock is 5 to 300 seconds."))
    if plan.bot_speed not in BOT_SPEEDS:
        raise TableError("bad_options", gettext("Unknown computer speed."))
    _takers_check(opts, plan.seats)
    table = Table(
        mode=plan.mode,
        variant=opts.variant,
        options=opts.to_dict(),
        host=plan.host,
        seed=secrets.randbits(63),
        clock_seconds=clock,
        bot_delay_ms=BOT_SPEEDS[plan.bot_speed],
        hand_pause_seconds=plan.hand_pause_seconds,
        status=Table.Status.PLAYING,
        started_at=timezone.now(),
        seq=1,
    )
    seats = [
        Seat(
            table=table,
            position=position,
            team=_team_of(opts, position),
            user=taker.user,
            bot_level=taker.bot_level,
            simulated=taker.simulated,
            name=taker.name,
        )
        for position, taker in enumerate(plan.seats)
    ]
    state = engine.new_match(opts, table.seed)
    table.state = engine.to_json(state)
    _timer_set(table, timer_next(table=table, seats=seats, state=state))
    return _Dealt(table=table, seats=seats, state=state, events=list(state.events))


def tables_seated_create(*, plans: Sequence[TablePlan]) -> list[Table]:
    """Started online or friend tables, one per plan, with every seat taken.

    The same rows, log entry (``seq`` 1), frames and timed job per table as
    ``table_create``, ``seat_join`` for each seat and ``table_start``, written as
    three INSERTs for all the tables together: the tables already dealt, their
    seats, their log entries. That path is about twenty statements per table, which
    were most of a wave's time (``bench/matchmaker.py wave``). Every refusal
    (``TableError``: an unknown mode or options, a wrong number of seats, a player
    twice, a seat that is neither a player nor a computer player) comes before the
    first write and changes nothing; the writes join the caller's transaction
    without a savepoint. The frames and the jobs go out after commit.
    """
    dealt = [_seated_build(plan) for plan in plans]
    if not dealt:
        return []
    tables = [d.table for d in dealt]
    with transaction.atomic(savepoint=False):
        Table.objects.bulk_create(tables)  # sets their ids (PostgreSQL, SQLite 3.35+)
        Seat.objects.bulk_create([seat for d in dealt for seat in d.seats])
        TableEvent.objects.bulk_create(
            [
                TableEvent(table=d.table, seq=1, actor="server", events=d.events)
                for d in dealt
            ]
        )
        for d in dealt:
            _post(d.table, d.seats, d.state, d.events)
    MOVES.labels("server").inc(len(dealt))
    return tables


def table_seated_create(
    *,
    mode: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    seats: Sequence[SeatTaker],
    host: User | None = None,
    clock_seconds: int | None = DEFAULT_CLOCK_SECONDS,
    bot_speed: str = DEFAULT_SPEED,
    hand_pause_seconds: int = 15,
) -> Table:
    """One started table whose seat ``i`` is taken by ``seats[i]``: the
    ``tables_seated_create`` of one plan."""
    plan = TablePlan(
        mode=mode,
        variant=variant,
        options=options,
        seats=seats,
        host=host,
        clock_seconds=clock_seconds,
        bot_speed=bot_speed,
        hand_pause_seconds=hand_pause_seconds,
    )
    return tables_seated_create(plans=[plan])[0]


@transaction.atomic
def seat_join(
    *,
    table_id: int,
    user: User | None = None,
    bot_level: str = "",
    simulated: bool = False,
    position: int | None = None,
    name: str = "",
) -> Seat:
    """Take a free seat of a waiting table (a player, or a computer player).

    ``name`` is a simulated player's generated name (shown with a computer label).
    """
    return seat_add(
        table_id=table_id,
        user=user,
        bot_level=bot_level,
        simulated=simulated,
        position=position,
        name=name,
    )


def seat_add(
    *,
    table_id: int,
    user: User | None = None,
    bot_level: str = "",
    simulated: bool = False,
    position: int | None = None,
    name: str = "",
) -> Seat:
    """:func:`seat_join` in the caller's ``transaction.atomic``, without a savepoint
    of its own: for a caller that rolls back on any error (every refusal raises
    before anything is written). Two statements: lock the table reading its
    seating, insert the seat."""
    seating = table_seating_locked(table_id)
    if seating is None:
        raise TableError("no_table", gettext("There is no such table."))
    if seating.status != Table.Status.WAITING:
        raise TableError("not_waiting", gettext("This table is not taking players."))
    opts = engine.Options.from_dict(seating.options)
    if user is not None and user.pk in seating.taken.values():
        raise TableError(
            "already_seated", gettext("You already have a seat at this table.")
        )
    if (user is None) == (not bot_level):
        raise TableError(
            "bad_seat", gettext("A seat holds a player or a computer player.")
        )
    if name and not simulated:
        raise TableError("bad_seat", gettext("Only a simulated player carries a name."))
    free = [p for p in range(opts.seats) if p not in seating.taken]
    if not free:
        raise TableError("table_full", gettext("This table is full."))
    if position is None:
        position = free[0]
    elif position not in free:
        raise TableError("seat_taken", gettext("That seat is taken."))
    return row_insert(
        Seat(
            table_id=table_id,
            position=position,
            team=_team_of(opts, position),
            user=user,
            bot_level=bot_level,
            simulated=simulated,
            name=name,
        )
    )


@transaction.atomic
def seat_move(*, table_id: int, user_id: int, position: int) -> None:
    """Move a player of a waiting table to seat ``position``, swapping with whoever
    sits there (a friend room's host chooses partners by seat).

    Raises ``TableError`` (nothing changed) for a table that is not waiting, a seat
    outside the table and a player without a seat.
    """
    table = _table_lock(table_id)
    if table.status != Table.Status.WAITING:
        raise TableError("not_waiting", gettext("This table has started already."))
    opts = engine.Options.from_dict(table.options)
    if not 0 <= position < opts.seats:
        raise TableError("bad_seat", gettext("Choose one of the table's seats."))
    seats = {s.position: s for s in table.seats.all()}
    seat = next((s for s in seats.values() if s.user_id == user_id), None)
    if seat is None:
        raise TableError("not_seated", gettext("That player has no seat here."))
    if seat.position == position:
        return
    other = seats.get(position)
    origin = seat.position
    if other is not None:
        # The unique (table, position) constraint: park one seat outside the range.
        Seat.objects.filter(pk=other.pk).update(position=opts.seats + 1)
    Seat.objects.filter(pk=seat.pk).update(
        position=position, team=_team_of(opts, position)
    )
    if other is not None:
        Seat.objects.filter(pk=other.pk).update(
            position=origin, team=_team_of(opts, origin)
        )


@transaction.atomic
def table_start(*, table_id: int) -> Table:
    """Deal the first hand of a waiting table whose seats are all taken."""
    return table_deal(table_id=table_id)


def table_deal(*, table_id: int) -> Table:
    """:func:`table_start` in the caller's ``transaction.atomic``, without a
    savepoint of its own: for a caller that rolls back on any error (every refusal
    raises before anything is written)."""
    table = _table_lock(table_id)
    if table.status != Table.Status.WAITING:
        raise TableError("not_waiting", gettext("This table has started already."))
    opts = engine.Options.from_dict(table.options)
    seats = table_seats(table)
    if len(seats) != opts.seats:
        raise TableError(
            "not_full", gettext("Every seat must be taken before the start.")
        )
    _start(table, seats)
    return table


def _start(table: Table, seats: list[Seat]) -> None:
    opts = engine.Options.from_dict(table.options)
    state = engine.new_match(opts, table.seed)
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    _transition(
        table,
        seats,
        state,
        position=None,
        actor="server",
        action=None,
        fields=["status", "started_at"],
    )


# --- playing


def _state(table: Table) -> engine.State:
    """The engine state of a table that has started (it always has one)."""
    if table.state is None:
        raise TableError("not_playing", gettext("This table is not in play."))
    return engine.from_json(table.state)


def _table_lock(table_id: int) -> Table:
    """Load and lock the table row; call inside ``transaction.atomic``."""
    table = table_locked(table_id)
    if table is None:
        raise TableError("no_table", gettext("There is no such table."))
    return table


def _act_check(
    *,
    table: Table,
    seats: list[Seat],
    user: User,
    action: Any,
    expected_seq: int,
    claimed_seat: int | None,
) -> tuple[Seat, engine.Action, engine.State]:
    """The acting seat, its action and the state it leads to, or ``TableError``
    saying why not. Reads only: the caller holds the row lock and writes."""
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError(
            "not_seated", gettext("Spectators cannot act; take a seat to play.")
        )
    if claimed_seat is not None and claimed_seat != seat.position:
        raise TableError(
            "not_your_seat", gettext("You can only act for your own seat.")
        )
    if table.status != Table.Status.PLAYING:
        raise TableError("not_playing", gettext("This table is not in play."))
    if expected_seq != table.seq and not _seats_changed_only(table, expected_seq):
        raise TableError(
            "stale_seq",
            gettext("The table moved on before your action arrived; try again."),
        )
    state = _state(table)
    try:
        parsed = engine.parse_action(action)
    except engine.IllegalAction as exc:
        raise TableError("bad_action", exc.message.render(gettext)) from None
    if not engine.legal_actions(state, seat.position):
        raise TableError("not_your_turn", gettext("It is not your turn."))
    try:
        return seat, parsed, engine.apply(state, seat.position, parsed)
    except engine.IllegalAction as exc:
        raise TableError("illegal", exc.message.render(gettext)) from None


def _seats_changed_only(table: Table, seq: int) -> bool:
    """Whether nothing but seats (presence, away, forfeit) changed after ``seq``.

    Such changes are new numbers too, but they leave the game where the player saw
    it, so an action sent against ``seq`` still means what the player meant: a
    move is not refused because an opponent's connection dropped meanwhile.
    """
    return 0 < seq < table.seq and not (
        TableEvent.objects.filter(
            table=table, seq__gt=seq, action__isnull=False
        ).exists()
    )


@transaction.atomic
def table_act(
    *,
    table_id: int,
    user: User,
    action: Any,
    expected_seq: int,
    claimed_seat: int | None = None,
) -> int:
    """Apply one player's action and return the table's new ``seq``.

    Every connection of the table, the acting one included, receives the new state
    through the outbox after commit. Raises ``TableError`` (nothing changed) when
    the player is not seated, acts for another seat, sends a stale ``seq``, acts on
    a table that is not playing, acts out of turn or makes an illegal move.
    """
    table = _table_lock(table_id)
    seats = table_seats(table)
    seat, parsed, new_state = _act_check(
        table=table,
        seats=seats,
        user=user,
        action=action,
        expected_seq=expected_seq,
        claimed_seat=claimed_seat,
    )
    if seat.away:
        seat.away = False
        seat.save(update_fields=["away"])
    _transition(
        table,
        seats,
        new_state,
        position=seat.position,
        actor="player",
        action=engine.action_to_dict(parsed),
        fields=[],
    )
    seq: int = table.seq
    return seq


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
    for a seat whose clock ran out (which then stays away until its owner acts), or
    the start of the next hand.

    A computer player thinks (the hard level for a tenth of a second or more) from
    an unlocked read, outside any transaction: on SQLite a write transaction holds
    the whole database. The decision is then applied under the row lock only if the
    table still waits for the same job at the same ``seq``; otherwise it is dropped,
    and whatever changed the table has queued the job that follows.
    """
    decision = _tick_decide(table_id=table_id, seq=seq)
    return _tick_apply(table_id=table_id, seq=seq, decision=decision)


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


def _tick_decide(*, table_id: int, seq: int) -> _Decision | None:
    """The computer player's decision for the job at ``seq``, from an unlocked
    read; None when the job is not a seat's, is not due yet or is stale."""
    table = table_read(table_id)
    if table is None or not _tick_due(table, seq):
        return None
    if table.timer == Table.Timer.NEXT_HAND or table.timer_seat is None:
        return None
    if table.deadline and timezone.now() + EARLY_TOLERANCE < table.deadline:
        return None
    seat = table_seats(table)[table.timer_seat]
    _, level = _tick_actor(seat)
    action = bot_action(
        table=table, state=_state(table), position=seat.position, level=level
    )
    return _Decision(
        seq=seq, timer=table.timer, position=seat.position, level=level, action=action
    )


@transaction.atomic
def _tick_apply(*, table_id: int, seq: int, decision: _Decision | None) -> bool:
    """Apply the job at ``seq`` under the row lock, with the computer player's
    ``decision`` for a seat's job; a seat's job without a decision that fits it
    is left to the tick that decides it (the one re-queued, or the next)."""
    try:
        table = _table_lock(table_id)
    except TableError:
        return False
    if not _tick_due(table, seq):
        return False
    if table.deadline and timezone.now() + EARLY_TOLERANCE < table.deadline:
        outbox.post(seq=table.seq, frames=(), job=_job(table))
        return False
    seats = table_seats(table)
    state = _state(table)
    if table.timer == Table.Timer.NEXT_HAND:
        new_state = engine.apply(state, 0, engine.Action.next_hand())
        _transition(
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
        outbox.post(seq=table.seq, frames=(), job=_job(table))
        return False
    if actor == "clock":
        seat.away = True
        seat.save(update_fields=["away"])
    action = decision.action
    if action is None:
        # A computer opponent let a Muggins window pass: only the pending job
        # changes, so the seq stays (a new one would make the player's move in
        # flight stale) and the job is queued again for the same seq.
        _timer_set(
            table, timer_next(table=table, seats=seats, state=state, muggins=False)
        )
        table_update(table, ["timer", "timer_seat", "deadline"])
        outbox.post(seq=table.seq, frames=(), job=_job(table))
        return False
    new_state = engine.apply(state, seat.position, action)
    _transition(
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


@transaction.atomic
def seat_back(*, table_id: int, user: User) -> None:
    """The owner of an away seat takes it back from the stand-in."""
    table = _table_lock(table_id)
    seats = table_seats(table)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or not seat.away or seat.forfeited:
        return
    seat.away = False
    seat.save(update_fields=["away"])
    if table.status == Table.Status.PLAYING:
        state = _state(table)
        timer = timer_next(table=table, seats=seats, state=state)
        _change(table, seats, state, position=seat.position, timer=timer)


@transaction.atomic
def seat_presence(
    *, table_id: int, user: User, connected: bool, socket: str = ""
) -> None:
    """Record that one of a player's sockets to the table opened or closed.

    ``socket`` names the connection (its channel name; a caller with a single
    connection may leave it out). A player may hold the table open in several tabs,
    served by different processes: the seat is ``connected`` while any of them is
    live (``games.presence``), so only the first socket opening and the last one
    closing change it, and only that change gives a playing table a new ``seq``.
    Its timed job keeps its deadline (a reconnect does not restart a turn clock).
    """
    table = table_locked(table_id)
    if table is None:
        return
    live = seat_sockets_count(
        table_id=table_id, user_id=user.pk, socket=socket, opened=connected
    )
    now_connected = live > 0
    changed = Seat.objects.filter(
        table_id=table_id, user=user, connected=not now_connected
    ).update(connected=now_connected)
    if not changed or table.status != Table.Status.PLAYING:
        return
    seats = table_seats(table)
    position = next(s.position for s in seats if s.user_id == user.pk)
    _change(table, seats, _state(table), position=position)


def table_leave(*, table_id: int, user: User) -> None:
    """Leave a table the way its kind allows: the table socket's ``leave``.

    A waiting table whose mode has an owner of its books (``games.leaving``: stake
    tables, friend rooms) is left through that owner's service, which frees the
    seat and settles its books in one transaction; if the table started meanwhile,
    it is left as a started table. Every other case is :func:`seat_leave`.
    """
    found = Table.objects.filter(pk=table_id).values_list("mode", "status").first()
    if found is None:
        raise TableError("no_table", gettext("There is no such table."))
    mode, status = found
    handler = leave_handler(mode)
    if handler is not None and status == Table.Status.WAITING:
        try:
            handler(table_id=table_id, user=user)
            return
        except TableError as err:
            if err.code != "not_waiting":
                raise
    seat_leave(table_id=table_id, user=user)


@transaction.atomic
def seat_leave(*, table_id: int, user: User) -> None:
    """Leave a table.

    Waiting table: the seat is freed, unless its mode's books are kept by another
    app (``games.leaving``), which alone frees those seats (refused here).
    Practice: the table is abandoned (cancelled). Friend, online and stake tables
    in play: the seat forfeits (finishes last) and the stand-in bot plays it to the
    end.
    """
    table = _table_lock(table_id)
    seats = table_seats(table)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated", gettext("You have no seat at this table."))
    if table.status == Table.Status.WAITING:
        if leave_handler(table.mode) is not None:
            raise TableError(
                "leave_elsewhere",
                gettext("Leave this table from its lobby or room page."),
            )
        seat.delete()
        return
    if table.status != Table.Status.PLAYING:
        return
    if table.mode == Table.Mode.PRACTICE:
        table_cancel_locked(table, reason="left", position=seat.position)
        return
    seat.forfeited = True
    seat.away = True
    seat.save(update_fields=["forfeited", "away"])
    state = _state(table)
    timer = timer_next(table=table, seats=seats, state=state)
    _change(table, seats, state, position=seat.position, timer=timer)


def seat_free(*, table_id: int, user_id: int) -> None:
    """Free a player's seat at a waiting table, for the owner of its books.

    Only a leave handler's service (``games.leaving``) calls this, inside its own
    transaction and holding its own row's lock, so the seat and the owner's books
    change together. Raises ``TableError`` (nothing changed): ``not_waiting`` for a
    table that is not waiting, ``not_seated`` for a player without a seat.
    """
    table = _table_lock(table_id)
    if table.status != Table.Status.WAITING:
        raise TableError("not_waiting", gettext("This table has started already."))
    deleted, _ = Seat.objects.filter(table_id=table_id, user_id=user_id).delete()
    if not deleted:
        raise TableError("not_seated", gettext("You have no seat at this table."))


def table_waiting_cancel(*, table_id: int) -> bool:
    """Cancel a table that never started (a friend room closed before its start).

    It has no moves, no log and nobody watching, so unlike ``table_cancel`` it
    takes no ``seq`` and announces nothing. True if this call cancelled it; a table
    that started, or was cancelled already, is left as it is.
    """
    return bool(
        Table.objects.filter(pk=table_id, status=Table.Status.WAITING).update(
            status=Table.Status.CANCELLED, finished_at=timezone.now()
        )
    )


@transaction.atomic
def table_cancel(*, table_id: int, reason: str = "staff") -> bool:
    """Cancel a waiting or playing table; True if this call cancelled it.

    Nobody is paid and no result is written. ``reason`` goes into the log entry
    (``staff``, ``idle`` for an abandoned practice table, or the caller's own, e.g.
    a stake table that did not fill). A table cancelled already is left as it is
    (False); a finished table cannot be cancelled (``TableError("finished")``). A
    table whose stored state cannot be read is still cancelled: its players then get
    the state without a view.
    """
    table = _table_lock(table_id)
    if table.status == Table.Status.CANCELLED:
        return False
    if table.status == Table.Status.FINISHED:
        raise TableError("finished", gettext("This table has finished already."))
    table_cancel_locked(table, reason=reason)
    return True


def table_cancel_locked(
    table: Table, *, reason: str, position: int | None = None
) -> None:
    """Cancel ``table``, whose row lock the caller holds: a new ``seq`` as always.

    ``table_cancelled`` goes out after the commit (once: a cancelled table is never
    cancelled again).
    """
    seats = table_seats(table)
    table.status = Table.Status.CANCELLED
    table.finished_at = timezone.now()
    try:
        state = engine.from_json(table.state) if table.state else None
    except Exception:
        state = None
    _change(
        table,
        seats,
        state,
        position=position,
        timer=NOTHING,
        fields=["status", "finished_at"],
        events=[{"type": "abandoned", "reason": reason}],
    )
    table_id, mode = table.pk, table.mode
    transaction.on_commit(
        lambda: _announce_cancelled(table_id=table_id, mode=mode, reason=reason)
    )


def _announce_cancelled(*, table_id: int, mode: str, reason: str) -> None:
    """Send ``table_cancelled``; a failing receiver is logged, the others still run."""
    replies = table_cancelled.send_robust(
        sender=Table, table_id=table_id, mode=mode, reason=reason
    )
    for receiver, reply in replies:
        if isinstance(reply, Exception):
            logger.error(
                "table %s: %s failed: %r", table_id, receiver.__qualname__, reply
            )


# --- the common transitions


def _transition(
    table: Table,
    seats: list[Seat],
    state: engine.State,
    *,
    position: int | None,
    actor: str,
    action: dict[str, Any] | None,
    fields: list[str],
) -> None:
    """Save ``state`` as the next ``seq`` with its log entry, decide the next timed
    job, and post the frames and the job to the outbox. Call it while holding the
    table's row lock."""
    table.seq += 1
    MOVES.labels(actor).inc()
    table.state = engine.to_json(state)
    events = list(state.events)
    event_append(
        table=table,
        seq=table.seq,
        seat=position,
        actor=actor,
        action=action,
        events=events,
    )
    update = ["seq", "state", "timer", "timer_seat", "deadline", *fields]
    if state.phase == "match_over":
        table_finish(table=table, seats=seats, state=state)
        update += ["status", "finished_at"]
    _timer_set(table, timer_next(table=table, seats=seats, state=state))
    table_update(table, update)
    _post(table, seats, state, events)


def _change(
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
        _timer_set(table, timer)
    table_update(table, ["seq", "timer", "timer_seat", "deadline", *fields])
    _post(table, seats, state, [])


def _post(
    table: Table,
    seats: list[Seat],
    state: engine.State | None,
    events: list[dict[str, Any]],
) -> None:
    """Hand the outbox this ``seq``'s frames and the timed job that follows them."""
    frames = table_frames(table=table, seats=seats, state=state, events=events)
    outbox.post(seq=table.seq, frames=frames, job=_job(table))


def _job(table: Table) -> TickJob | None:
    """The Celery task for the job recorded on the row, if any."""
    if not table.timer or table.deadline is None:
        return None
    return tick_job(table.pk, table.seq, table.deadline)


def _timer_set(table: Table, timer: NextTimer) -> None:
    """Record the next timed job on the row (the caller saves it)."""
    table.timer = timer.kind
    table.timer_seat = timer.seat
    table.deadline = (
        timezone.now() + timedelta(seconds=timer.delay) if timer.due else None
    )
