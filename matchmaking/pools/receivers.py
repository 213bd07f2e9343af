"""What a finished table owes in matchmaking and the economy: rewards, ratings,
leavers' offences (registered with ``games.finish`` by ``MatchmakingConfig``).

Each runs once per table inside the transaction that marks its finish step done;
each is also idempotent per table (the ledger's keys, ``RatingChange`` and
``Offence`` are unique per table).
"""

from __future__ import annotations

from economy.services import Placing, table_rewards_pay
from games.finish import FinishNotice
from matchmaking.pools.conduct import offences_on_table_finished
from matchmaking.pools.ratings import ratings_apply

# The modes each consequence applies to (RULES.md §5-§6). Stake tables are paid by
# ``matchmaking.stakes.receivers`` with their pot (a forfeited seat earns nothing).
REWARDED_MODES = ("friend", "online")
RATED_MODES = ("online", "stake")


def rewards_on_table_finished(notice: FinishNotice) -> None:
    """Pay the table's rewards by mode (RULES.md §5); a seat whose owner did not
    play it (``unpaid``) is placed as a player who earns nothing."""
    table_rewards_pay(
        table_ref=str(notice.table_id),
        mode=notice.mode,
        placings=[
            Placing(
                user_id=None if r.unpaid else r.user_id,
                position=r.place,
                seat=r.position,
                team=r.team,
            )
            for r in notice.results
        ],
    )


def ratings_on_table_finished(notice: FinishNotice) -> None:
    """Rate the people of an online or stake table once (RULES.md §6)."""
    ratings_apply(
        table_id=notice.table_id,
        mode=notice.mode,
        variant=notice.variant,
        results=notice.results,
    )


def conduct_on_table_finished(notice: FinishNotice) -> None:
    """Count leavers' offences of an online or stake table (RULES.md §6)."""
    offences_on_table_finished(
        table_id=notice.table_id, mode=notice.mode, results=notice.results
    )
