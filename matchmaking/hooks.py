"""What matchmaking hangs on ``games``' hooks: the finish consequences, the
cancelled-table receivers, the friend tables' watch check and the leave handlers
of the tables whose seats matchmaking's books own."""

from __future__ import annotations

from accounts.nav_counts import nav_count_register
from games.finish import consequence_register
from games.leaving import leave_handler_register
from games.signals import table_cancelled
from games.watchers import watch_check_register
from matchmaking.pools import receivers
from matchmaking.rooms.receivers import (
    room_on_table_cancelled,
    room_on_table_finished,
)
from matchmaking.rooms.selectors import invitations_open, room_table_watchable
from matchmaking.rooms.services import room_table_leave
from matchmaking.stakes.receivers import (
    stake_on_table_cancelled,
    stake_on_table_finished,
)
from matchmaking.stakes.services import stake_leave


def hooks_register() -> None:
    """Register every hook once (``MatchmakingConfig.ready``)."""
    consequence_register(
        "rewards",
        receivers.rewards_on_table_finished,
        modes=receivers.REWARDED_MODES,
    )
    consequence_register(
        "ratings", receivers.ratings_on_table_finished, modes=receivers.RATED_MODES
    )
    consequence_register(
        "conduct", receivers.conduct_on_table_finished, modes=receivers.RATED_MODES
    )
    consequence_register("stakes", stake_on_table_finished, modes=("stake",))
    consequence_register("room", room_on_table_finished, modes=("friend",))
    watch_check_register("friend", room_table_watchable)
    nav_count_register("invitation_count", invitations_open)
    table_cancelled.connect(
        stake_on_table_cancelled, dispatch_uid="matchmaking.stakes.cancelled"
    )
    table_cancelled.connect(
        room_on_table_cancelled,
        dispatch_uid="matchmaking.rooms.cancelled",
    )
    # A waiting stake or friend table is left only through its books' owner.
    leave_handler_register(mode="stake", handler=stake_leave)
    leave_handler_register(mode="friend", handler=room_table_leave)
