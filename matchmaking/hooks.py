"""What matchmaking hangs on ``games``' and ``economy``'s hooks: the finish
consequences, the cancelled-table receivers, the friend tables' watch check, the
leave handlers of the tables whose seats matchmaking's books own, and the accounts
barred from minted coins (bot accounts)."""

from __future__ import annotations

from accounts.bots import user_is_bot
from accounts.nav_counts import nav_count_register
from economy.eligibility import earning_barred_register
from games.finish import consequence_register
from games.leaving import leave_handler_register
from games.signals import table_cancelled
from games.tv import tv_ratings_register
from games.watchers import watch_check_register
from matchmaking.pools import receivers
from matchmaking.pools.tv import tv_ratings, tv_variants
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
    tv_ratings_register(ratings=tv_ratings, variants=tv_variants)
    nav_count_register("invitation_count", invitations_open)
    earning_barred_register(_bot_barred)
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


def _bot_barred(user_id: int) -> bool:
    """Bot accounts receive no minted coin (docs/api.md, "Bot accounts")."""
    return user_is_bot(user_id=user_id)
