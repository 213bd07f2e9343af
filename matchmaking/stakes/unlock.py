"""Stakes are unlocked by play (RULES.md §5): which stakes a player may sit at.

A stake needs ``STAKES_UNLOCK[stake]`` rated tables: finished online or stake
tables where the player kept their seat, played more than half of its decisions
themselves (``Seat.unpaid`` blank: "earning needs playing") and sat with at least
one other person (a table rated nobody otherwise). Sign-up coins are the player's
own, but a fresh account cannot carry them to a stake table at once. Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils.translation import ngettext

from games.models import Seat, Table

# Stake tables rate like online ones (``matchmaking.pools.ratings``, which the
# stakes do not import: the layers keep pools and stakes apart).
RATED_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)


def stakes_unlock() -> dict[int, int]:
    """``{stake: rated tables needed}`` (``settings.STAKES_UNLOCK``)."""
    return dict(settings.STAKES_UNLOCK)


def rated_tables(*, user_id: int) -> int:
    """How many rated tables the player has played (see the module's docstring)."""
    another = Seat.objects.filter(
        table_id=OuterRef("table_id"), user_id__isnull=False, simulated=False
    ).exclude(user_id=user_id)
    return (
        Seat.objects.filter(
            user_id=user_id,
            forfeited=False,
            unpaid="",
            table__mode__in=RATED_MODES,
            table__status=Table.Status.FINISHED,
        )
        .filter(Exists(another))
        .count()
    )


@dataclass(frozen=True)
class StakeUnlock:
    """One stake as a player sees it: needed tables, and how many more to play."""

    stake: int
    needed: int
    more: int

    @property
    def open(self) -> bool:
        return self.more == 0


def stake_unlocks(*, user_id: int, stakes: list[int]) -> tuple[int, list[StakeUnlock]]:
    """The player's rated tables and each stake's unlock, in ``stakes`` order."""
    needs = stakes_unlock()
    played = rated_tables(user_id=user_id) if any(needs.values()) else 0
    return played, [
        StakeUnlock(
            stake=stake,
            needed=needs.get(stake, 0),
            more=max(0, needs.get(stake, 0) - played),
        )
        for stake in stakes
    ]


def stake_locked_reason(*, user_id: int, stake: int) -> str | None:
    """Why the player may not sit at ``stake`` yet, or None if they may."""
    _played, (unlock,) = stake_unlocks(user_id=user_id, stakes=[stake])
    if unlock.open:
        return None
    needed, more = unlock.needed, unlock.more
    return ngettext(
        "Tables of %(stake)d coins open after %(needed)d rated tables: play "
        "%(more)d more online table to the end first.",
        "Tables of %(stake)d coins open after %(needed)d rated tables: play "
        "%(more)d more online tables to the end first.",
        more,
    ) % {"stake": stake, "needed": needed, "more": more}
