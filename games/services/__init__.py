"""Table writes, for views, consumers, tasks and other apps (matchmaking, leagues).

Create (empty, or started with every seat taken), seat, start, client seeds
(``table_seed``, the fair deal), act, tick, presence, back, leave (``table_leave``,
``seat_leave``), cancel. Every change runs in one
transaction that locks the table row (``select_for_update``), saves the table as the
next ``seq`` with a ``TableEvent`` (a move, or an empty entry for a change of seats
or status), decides the next timed job, and posts the seats' and spectators' views
with that job to ``realtime.outbox``, which sends them after commit
(``games.services.transitions``). A table created with every seat taken
(``tables_seated_create``) is a new row nobody sees before the commit, so it takes no
lock. Finishing a table is ``games.finish``.
"""

from games.services.acting import table_act
from games.services.cancelling import (
    table_cancel,
    table_cancel_locked,
    table_waiting_cancel,
)
from games.services.creating import (
    DEFAULT_CLOCK_SECONDS,
    SEATED_MODES,
    SeatTaker,
    TablePlan,
    table_create,
    table_deal,
    table_practice_create,
    table_seated_create,
    table_start,
    tables_seated_create,
)
from games.services.seats import (
    seat_add,
    seat_back,
    seat_free,
    seat_join,
    seat_leave,
    seat_move,
    seat_presence,
    seats_offline_tick,
    table_leave,
)
from games.services.seeding import table_seed
from games.services.timed_jobs import (
    EARLY_TOLERANCE,
    STANDIN_LEVEL,
    bot_action,
    table_tick,
)
from games.services.transitions import MOVES

__all__ = [
    "DEFAULT_CLOCK_SECONDS",
    "EARLY_TOLERANCE",
    "MOVES",
    "SEATED_MODES",
    "STANDIN_LEVEL",
    "SeatTaker",
    "TablePlan",
    "bot_action",
    "seat_add",
    "seat_back",
    "seat_free",
    "seat_join",
    "seat_leave",
    "seat_move",
    "seat_presence",
    "seats_offline_tick",
    "table_act",
    "table_cancel",
    "table_cancel_locked",
    "table_create",
    "table_deal",
    "table_leave",
    "table_practice_create",
    "table_seed",
    "table_seated_create",
    "table_start",
    "table_tick",
    "table_waiting_cancel",
    "tables_seated_create",
]
