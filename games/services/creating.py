"""Creating tables: empty ones waiting for players, practice tables against computer
players, and started tables with every seat taken; dealing a full waiting table.

Every table commits to its fair deal at creation (``games.fairness.fair_new``); a
fair table that starts waits for its players' client seeds before its first deal
(``games.services.seeding``)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.bots import bot_ids, user_is_bot
from dbtools.rows import row_insert, rows_insert
from games import engine
from games.errors import TableError
from games.fairness import chains_take, fair_chain_set, fair_new, fair_unchained
from games.models import Seat, Table, TableEvent
from games.rows import table_seats
from games.services.seats import team_of
from games.services.seeding import seeding_open, seeding_timer
from games.services.transitions import (
    MOVES,
    frames_post,
    table_lock,
    timer_set,
    transition,
)
from games.speeds import BOT_SPEEDS, DEFAULT_SPEED
from games.timers import timer_next

DEFAULT_CLOCK_SECONDS = 30
MAX_BANK_SECONDS = 600  # a seat's time bank for the match, at most


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
        fair=fair_new(seats=opts.seats),
        clock_seconds=None,
        bot_delay_ms=BOT_SPEEDS[bot_speed],
        hand_pause_seconds=0,
    )
    practice_seats_create(table, opts, user, bot_levels)
    _start(table, table_seats(table))
    return table


def practice_seats_create(
    table: Table, opts: engine.Options, user: User, bot_levels: Sequence[str]
) -> list[Seat]:
    """A practice table's seats: the player in seat 0, computer players of
    ``bot_levels`` in the others (a live practice table, an uploaded offline game)."""
    return Seat.objects.bulk_create(
        [
            Seat(
                table=table,
                position=0,
                team=team_of(opts, 0),
                user=user,
                name=user.get_username(),
                program=user_is_bot(user_id=user.pk),
            )
        ]
        + [
            Seat(table=table, position=i, team=team_of(opts, i), bot_level=level)
            for i, level in enumerate(bot_levels, start=1)
        ]
    )


def table_create(
    *,
    mode: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    host: User | None = None,
    clock_seconds: int | None = DEFAULT_CLOCK_SECONDS,
    bank_seconds: int | None = None,
    bot_speed: str = DEFAULT_SPEED,
    hand_pause_seconds: int = 15,
) -> Table:
    """A waiting table with empty seats, for people (friend rooms, online tables).

    ``bank_seconds``: each seat's time bank for the match, used once a turn's
    clock has run out (None: no bank). One INSERT, atomic by itself: no
    transaction or savepoint of its own."""
    if mode not in Table.Mode.values or mode == Table.Mode.PRACTICE:
        raise TableError("bad_options", gettext("Unknown table mode."))
    opts = _options_build(variant, options or {})
    _clock_check(clock_seconds, bank_seconds)
    return row_insert(
        Table(
            mode=mode,
            variant=opts.variant,
            options=opts.to_dict(),
            host=host,
            seed=secrets.randbits(63),
            fair=fair_new(seats=opts.seats),
            clock_seconds=clock_seconds,
            bank_seconds=bank_seconds,
            bot_delay_ms=BOT_SPEEDS[bot_speed],
            hand_pause_seconds=hand_pause_seconds,
        )
    )


def _clock_check(clock_seconds: int | None, bank_seconds: int | None) -> None:
    """Refuse a turn clock or time bank out of range, or a bank without a clock."""
    if clock_seconds is not None and not 5 <= clock_seconds <= 300:
        raise TableError("bad_options", gettext("The turn clock is 5 to 300 seconds."))
    if bank_seconds is None:
        return
    if clock_seconds is None:
        raise TableError(
            "bad_options", gettext("A time bank needs a turn clock to draw on.")
        )
    if not 1 <= bank_seconds <= MAX_BANK_SECONDS:
        raise TableError(
            "bad_options",
            gettext("The time bank is 1 to %(most)d seconds.")
            % {"most": MAX_BANK_SECONDS},
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
    bank_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class _Dealt:
    """A planned table built in memory, dealt, with its seats and first log entry."""

    table: Table
    seats: list[Seat]
    state: engine.State | None  # None: a fair table waiting for its seeds
    events: list[dict[str, Any]]


def _seated_build(plan: TablePlan, programs: set[int]) -> _Dealt:
    """Check ``plan`` (``TableError`` if refused) and deal its table in memory;
    ``programs`` are the bot accounts among its players (``Seat.program``)."""
    if plan.mode not in SEATED_MODES:
        raise TableError("bad_options", gettext("Unknown table mode."))
    opts = _options_build(plan.variant, plan.options or {})
    clock = plan.clock_seconds
    _clock_check(clock, plan.bank_seconds)
    if plan.bot_speed not in BOT_SPEEDS:
        raise TableError("bad_options", gettext("Unknown computer speed."))
    _takers_check(opts, plan.seats)
    table = Table(
        mode=plan.mode,
        variant=opts.variant,
        options=opts.to_dict(),
        host=plan.host,
        seed=secrets.randbits(63),
        fair=fair_unchained(seats=opts.seats),  # chained in tables_seated_create
        clock_seconds=clock,
        bank_seconds=plan.bank_seconds,
        bot_delay_ms=BOT_SPEEDS[plan.bot_speed],
        hand_pause_seconds=plan.hand_pause_seconds,
        status=Table.Status.PLAYING,
        started_at=timezone.now(),
        seq=1,
    )
    seats = [
        Seat(  # its table is set once the table has an id
            position=position,
            team=team_of(opts, position),
            user=taker.user,
            bot_level=taker.bot_level,
            simulated=taker.simulated,
            name=taker.name if taker.user is None else taker.user.get_username(),
            program=taker.user is not None and taker.user.pk in programs,
        )
        for position, taker in enumerate(plan.seats)
    ]
    if table.fair is not None:
        # Dealt once the seeds are in (``games.services.seeding``).
        timer_set(table, seeding_timer(seats))
        return _Dealt(table=table, seats=seats, state=None, events=[])
    state = engine.new_match(opts, table.seed)
    table.state = engine.to_json(state)
    timer_set(table, timer_next(table=table, seats=seats, state=state))
    return _Dealt(table=table, seats=seats, state=state, events=list(state.events))


def tables_seated_create(*, plans: Sequence[TablePlan]) -> list[Table]:
    """Started online or friend tables, one per plan, with every seat taken.

    The same rows, log entry (``seq`` 1), frames and timed job per table as
    ``table_create``, ``seat_join`` for each seat and ``table_start``, written as
    three INSERTs for all the tables together: the tables already dealt, their
    seats, their log entries. That path is about twenty statements per table, which
    were most of a wave's time (``bench/matchmaker.py wave``). The INSERTs are
    ``dbtools.rows.rows_insert``'s (on PostgreSQL the rows of each as one JSON
    parameter): the ORM's ``bulk_create`` converting every value of 500 tables and
    their seats took longer than the statements (``bench/arena.py``). Every refusal
    (``TableError``: an unknown mode or options, a wrong number of seats, a player
    twice, a seat that is neither a player nor a computer player) comes before the
    first write and changes nothing; the writes join the caller's transaction
    without a savepoint. The tables' chains come from the reserve of chains drawn
    ahead, in that transaction (``games.fairness.chains_take``). The frames and
    the jobs go out after commit.
    """
    programs = bot_ids(
        user_ids=[t.user.pk for plan in plans for t in plan.seats if t.user is not None]
    )
    dealt = [_seated_build(plan, programs) for plan in plans]
    if not dealt:
        return []
    tables = [d.table for d in dealt]
    with transaction.atomic(savepoint=False):
        deals = [table.fair for table in tables if table.fair is not None]
        for deal, chain in zip(deals, chains_take(len(deals)), strict=True):
            fair_chain_set(deal, chain)
        rows_insert(tables)  # sets their ids
        seats = []
        for d in dealt:
            for seat in d.seats:
                seat.table = d.table  # its id, now that it has one
                seats.append(seat)
        rows_insert(seats)
        rows_insert(
            [
                TableEvent(table_id=d.table.pk, seq=1, actor="server", events=d.events)
                for d in dealt
            ]
        )
        for d in dealt:
            frames_post(d.table, d.seats, d.state, d.events)
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
    bank_seconds: int | None = None,
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
        bank_seconds=bank_seconds,
        bot_speed=bot_speed,
        hand_pause_seconds=hand_pause_seconds,
    )
    return tables_seated_create(plans=[plan])[0]


@transaction.atomic
def table_start(*, table_id: int) -> Table:
    """Deal the first hand of a waiting table whose seats are all taken."""
    return table_deal(table_id=table_id)


def table_deal(*, table_id: int) -> Table:
    """:func:`table_start` in the caller's ``transaction.atomic``, without a
    savepoint of its own: for a caller that rolls back on any error (every refusal
    raises before anything is written)."""
    table = table_lock(table_id)
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
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    if table.fair is not None:
        seeding_open(table, seats, fields=["status", "started_at"])
        return
    opts = engine.Options.from_dict(table.options)
    state = engine.new_match(opts, table.seed)
    transition(
        table,
        seats,
        state,
        position=None,
        actor="server",
        action=None,
        fields=["status", "started_at"],
    )
