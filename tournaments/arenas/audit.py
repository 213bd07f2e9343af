"""Arena prizes against the games behind them (part of the platform audit's
``minting``, ``ops.audit``): every prize, coins or XP under ``arena:<id>:<user>``
(and a team battle's club prize, ``arena:<id>:<user>:club``), went to a player
with an earning game in that arena (RULES.md §5, "Earning needs playing";
``tournaments.arenas.earning``)."""

from __future__ import annotations

from economy.models import Transaction, XpAward
from tournaments.arenas.earning import arenas_earning_players
from tournaments.arenas.prizes import CLUB_SUFFIX, PRIZE_PREFIX

REPORT_LIMIT = 1000


def _parse(key: str) -> tuple[int, int] | None:
    """The arena and the player of a prize's key (a team battle's club prize ends
    in ``:club``)."""
    key = key.removesuffix(CLUB_SUFFIX)
    parts = key.split(":")
    if len(parts) != 3 or not (parts[1].isdigit() and parts[2].isdigit()):
        return None
    return int(parts[1]), int(parts[2])


def arena_prizes_audit() -> list[str]:
    """Return every arena prize paid to a player with no earning game there."""
    keys = set(
        Transaction.objects.filter(key__startswith=PRIZE_PREFIX).values_list(
            "key", flat=True
        )
    ) | set(
        XpAward.objects.filter(key__startswith=PRIZE_PREFIX).values_list(
            "key", flat=True
        )
    )
    if not keys:
        return []
    parsed = {key: _parse(key) for key in keys}
    earned = arenas_earning_players(
        arena_ids={p[0] for p in parsed.values() if p is not None}
    )
    breaches = []
    for key in sorted(keys):
        prize = parsed[key]
        if prize is None:
            breaches.append(f"minting: {key} is not an arena prize key")
        elif prize not in earned:
            breaches.append(
                f"minting: arena {prize[0]}: user {prize[1]} was paid {key} "
                "without an earning game in it"
            )
        if len(breaches) >= REPORT_LIMIT:
            break
    return breaches
