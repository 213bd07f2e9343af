"""What the table waits for next: a computer player, a turn clock or the next hand.

Decided from the state after every transition. The decision is stored on the table row
(``timer``, ``timer_seat``, ``deadline``) so a lost task is recovered by the sweep, and
the Celery task carries the table's ``seq`` so a stale one does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
        return NextTimer(Table.Timer.CLOCK, current, float(table.clock_seconds))
    return NOTHING
