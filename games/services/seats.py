"""Taking, moving and leaving seats; a player's presence and return from away."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.bots import user_is_bot
from dbtools.rows import row_insert
from games import engine
from games.errors import TableError
from games.leaving import leave_handler
from games.models import Seat, Table
from games.presence import seat_sockets_count
from games.rows import table_locked, table_seating_locked, table_seats
from games.services.cancelling import table_cancel_locked
from games.services.transitions import change, state_or_none, table_lock
from games.timers import NextTimer, timer_next


def team_of(options: engine.Options, position: int) -> int | None:
    return position % 2 if options.partnership else None


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
            team=team_of(opts, position),
            user=user,
            bot_level=bot_level,
            simulated=simulated,
            name=name if user is None else user.get_username(),
            program=user is not None and user_is_bot(user_id=user.pk),
        )
    )


@transaction.atomic
def seat_move(*, table_id: int, user_id: int, position: int) -> None:
    """Move a player of a waiting table to seat ``position``, swapping with whoever
    sits there (a friend room's host chooses partners by seat).

    Raises ``TableError`` (nothing changed) for a table that is not waiting, a seat
    outside the table and a player without a seat.
    """
    table = table_lock(table_id)
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
        position=position, team=team_of(opts, position)
    )
    if other is not None:
        Seat.objects.filter(pk=other.pk).update(
            position=origin, team=team_of(opts, origin)
        )


@transaction.atomic
def seat_back(*, table_id: int, user: User) -> None:
    """The owner of an away seat takes it back from the stand-in."""
    table = table_lock(table_id)
    seats = table_seats(table)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or not seat.away or seat.forfeited:
        return
    seat.away = False
    seat.save(update_fields=["away"])
    if table.status == Table.Status.PLAYING:
        state = state_or_none(table)
        timer = _timer_after_seats(table, seats, state)
        change(table, seats, state, position=seat.position, timer=timer)


# How long a seat whose last socket closed still shows as connected: a page reload
# (close, load, open) fits in it on a slow phone, so it does not flash the seat
# offline and online for everyone at the table, two new ``seq`` for nothing.
OFFLINE_GRACE = timedelta(seconds=5)


def seat_presence(
    *, table_id: int, user: User, connected: bool, socket: str = ""
) -> None:
    """Record that one of a player's sockets to the table opened or closed.

    ``socket`` names the connection (its channel name; a caller with a single
    connection may leave it out). A player may hold the table open in several tabs,
    served by different processes: the seat is ``connected`` while any of them is
    live (``games.presence``), so only the first socket opening and the last one
    closing change it. The last one closing only marks the seat ``offline_at`` (one
    statement): :func:`seats_offline_tick` makes it offline, with a new ``seq``,
    once :data:`OFFLINE_GRACE` has passed without a socket opening again; one that
    opens meanwhile clears the mark and nothing else changes. Its timed job keeps
    its deadline (a reconnect does not restart a turn clock).
    """
    live = seat_sockets_count(
        table_id=table_id, user_id=user.pk, socket=socket, opened=connected
    )
    mine = Seat.objects.filter(table_id=table_id, user=user)
    if live == 0:
        mine.filter(connected=True, offline_at__isnull=True).update(
            offline_at=timezone.now() + OFFLINE_GRACE
        )
        return
    if not connected:
        return
    # Back within the grace: the seat never showed as offline. The update waits
    # behind a sweep that holds the seat's row, and then finds no mark to clear.
    if mine.filter(connected=True, offline_at__isnull=False).update(offline_at=None):
        return
    _seat_connect(table_id=table_id, user=user)


@transaction.atomic
def _seat_connect(*, table_id: int, user: User) -> None:
    """Mark the seat connected under the table's lock; a playing table gets a new
    ``seq`` if it was offline."""
    table = table_locked(table_id)
    if table is None:
        return
    changed = Seat.objects.filter(table_id=table_id, user=user, connected=False).update(
        connected=True, offline_at=None
    )
    if not changed or table.status != Table.Status.PLAYING:
        return
    seats = table_seats(table)
    position = next(s.position for s in seats if s.user_id == user.pk)
    change(table, seats, state_or_none(table), position=position)


# The most seats one sweep makes offline (the next sweep takes the rest).
OFFLINE_PER_SWEEP = 500


def seats_offline_tick(
    *, now: datetime | None = None, limit: int = OFFLINE_PER_SWEEP
) -> int:
    """Make offline the seats whose last socket closed more than
    :data:`OFFLINE_GRACE` ago (beat, with the turn clocks: ``games.clock_sweep``);
    return how many. A socket that opened meanwhile cleared the mark: its seat is
    left connected."""
    now = now or timezone.now()
    due = Seat.objects.filter(offline_at__lte=now).values_list("table_id", "user")[
        :limit
    ]
    done = 0
    users = {u.pk: u for u in User.objects.filter(pk__in={u for _, u in due})}
    for table_id, user_id in due:
        user = users.get(user_id)
        if user is not None:
            done += _seat_offline(table_id=table_id, user=user, now=now)
    return done


@transaction.atomic
def _seat_offline(*, table_id: int, user: User, now: datetime) -> int:
    table = table_locked(table_id)
    if table is None:
        return 0
    changed = Seat.objects.filter(
        table_id=table_id, user=user, offline_at__lte=now
    ).update(connected=False, offline_at=None)
    if changed and table.status == Table.Status.PLAYING:
        seats = table_seats(table)
        position = next(s.position for s in seats if s.user_id == user.pk)
        change(table, seats, state_or_none(table), position=position)
    return changed


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
    table = table_lock(table_id)
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
    state = state_or_none(table)
    timer = _timer_after_seats(table, seats, state)
    change(table, seats, state, position=seat.position, timer=timer)


def _timer_after_seats(
    table: Table, seats: list[Seat], state: engine.State | None
) -> NextTimer | None:
    """The job once a playing seat changed hands (back, away, forfeited); None keeps
    the job of a fair table waiting for its seeds (its deal is due anyway)."""
    if state is None:
        return None
    return timer_next(table=table, seats=seats, state=state)


def seat_free(*, table_id: int, user_id: int) -> None:
    """Free a player's seat at a waiting table, for the owner of its books.

    Only a leave handler's service (``games.leaving``) calls this, inside its own
    transaction and holding its own row's lock, so the seat and the owner's books
    change together. Raises ``TableError`` (nothing changed): ``not_waiting`` for a
    table that is not waiting, ``not_seated`` for a player without a seat.
    """
    table = table_lock(table_id)
    if table.status != Table.Status.WAITING:
        raise TableError("not_waiting", gettext("This table has started already."))
    deleted, _ = Seat.objects.filter(table_id=table_id, user_id=user_id).delete()
    if not deleted:
        raise TableError("not_seated", gettext("You have no seat at this table."))
