"""What the table waits for next: a computer player, a turn clock or the next hand.

Decided from the state after every transition. The decision is stored on the table row
(``timer``, ``timer_seat``, ``deadline``) so a lost task is recovered by the sweep, and
the Celery task carries the table's ``seq`` so a stale one does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from games import engine
from games.models import Seat, Table

# Computer players that may call Muggins out of turn; ``easy`` never does (issue 4).
MUGGINS_CALLERS = {"medium", "hard"}


@dataclass(frozen=True, slots=True)
class NextTimer:
    kind: str  # a Table.Timer value
    seat: int | None
    delay: float  # seconds from now

    @property
    def due(self) -> bool:
        return self.kind != Table.Timer.NONE


NOTHING = NextTimer(Table.Timer.NONE, None, 0.0)


def seat_is_automatic(seat: Seat) -> bool:
    """A computer player, or a player whose stand-in bot plays (away or left)."""
    return seat.is_bot or seat.away or seat.forfeited


def timer_next(
    *, table: Table, seats: Sequence[Seat], state: engine.State, muggins: bool = True
) -> NextTimer:
    """The timed job the table needs after reaching ``state``.

    ``muggins=False`` skips asking computer opponents about an open Muggins window
    (one of them just let it pass).
    """
    bot_delay = table.bot_delay_ms / 1000
    if state.phase == "match_over":
        return NOTHING
    if state.phase == "hand_over":
        if all(seat_is_automatic(s) for s in seats):
            return NextTimer(Table.Timer.NEXT_HAND, None, bot_delay)
        if table.hand_pause_seconds:
            return NextTimer(Table.Timer.NEXT_HAND, None, table.hand_pause_seconds)
        return NOTHING  # a player presses "Next hand"
    for seat in seats:
        if (
            muggins
            and seat.is_bot
            and seat.bot_level in MUGGINS_CALLERS
            and engine.Action.muggins() in engine.legal_actions(state, seat.position)
            and engine.current_seat(state) != seat.position
        ):
            return NextTimer(Table.Timer.BOT, seat.position, bot_delay)
    current = engine.current_seat(state)
    if current is None:
        return NOTHING
    seat = seats[current]
    if seat_is_automatic(seat):
        return NextTimer(Table.Timer.BOT, current, bot_delay)
    if table.clock_seconds:
        # The seat's time bank runs on after the clock: the job falls due when
        # both are spent (``bank_spend`` charges what the player used of the bank).
        delay = table.clock_seconds + bank_left_ms(table=table, seat=seat) / 1000
        return NextTimer(Table.Timer.CLOCK, current, delay)
    return NOTHING


def bank_left_ms(*, table: Table, seat: Seat) -> int:
    """What is left of ``seat``'s time bank, in milliseconds (0 without a bank).

    A seat's bank is the table's ``bank_seconds`` until first drawn on: it is per
    match, never refilled at a new hand.
    """
    if not table.bank_seconds or not table.clock_seconds:
        return 0
    if seat.bank_ms is None:
        return table.bank_seconds * 1000
    return seat.bank_ms


def bank_clock_end(*, table: Table, seat: Seat) -> datetime | None:
    """When the turn clock of ``seat``, the seat whose clock runs now, ends and its
    bank starts being used (the job's deadline less the bank); None when no turn
    clock of that seat runs."""
    if (
        table.timer != Table.Timer.CLOCK
        or table.timer_seat != seat.position
        or table.deadline is None
    ):
        return None
    return table.deadline - timedelta(milliseconds=bank_left_ms(table=table, seat=seat))


def bank_spend(*, table: Table, seat: Seat, now: datetime) -> bool:
    """Charge ``seat``'s bank for the part of its turn past the clock, as it acts at
    ``now`` (before the next job replaces the current one); True when
    ``seat.bank_ms`` changed (the caller saves it). The bank never goes below zero.
    """
    clock_end = bank_clock_end(table=table, seat=seat)
    if clock_end is None or now <= clock_end:
        return False
    left = bank_left_ms(table=table, seat=seat)
    used = min(left, int((now - clock_end).total_seconds() * 1000))
    if used <= 0:
        return False
    seat.bank_ms = left - used
    return True
