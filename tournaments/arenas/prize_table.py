"""An arena's prizes under "earning needs playing" (RULES.md §5): pure, no Django.

- **The field** is the players with at least one earning game in the arena (a
  game where they made more than half of their own decisions, not forfeited:
  ``tournaments.arenas.earning``). Only they are ranked for a prize.
- **Minimum field**: below ``min_field`` such players, no prize at all.
- **Paid places**: half the field, rounded down, at most the table's length; a
  player who scored no point is paid nothing whatever their rank.
- **The purse**: the prizes together are at most ``per_game`` (coins, XP) times
  the earning games played in the arena (each player's own, summed). When the
  table asks for more, every prize is cut by the same factor, rounded down, so
  an arena never mints more than its games are worth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PrizeRules:
    """The prize table by rank ``(coins, xp)``, the purse per earning game and the
    minimum field (``settings.TOURNAMENTS_ARENA_*``)."""

    table: tuple[tuple[int, int], ...]
    per_game: tuple[int, int]
    min_field: int


@dataclass(frozen=True, slots=True)
class Contender:
    """A player of the field with their final rank among the field."""

    user_id: int
    rank: int
    score: int


def paid_places(*, field: int, rules: PrizeRules) -> int:
    """How many ranks are paid for a field of ``field`` earning players."""
    if field < rules.min_field:
        return 0
    return min(len(rules.table), field // 2)


def purse_cap(*, earning_games: int, rules: PrizeRules) -> tuple[int, int]:
    """The most (coins, XP) all of an arena's prizes may add up to."""
    coins, xp = rules.per_game
    return coins * earning_games, xp * earning_games


def _cut(amounts: Mapping[int, int], cap: int) -> dict[int, int]:
    total = sum(amounts.values())
    if total <= cap:
        return dict(amounts)
    return {key: amount * cap // total for key, amount in amounts.items()}


def prizes_award(
    *, ranked: Sequence[Contender], earning_games: int, rules: PrizeRules
) -> dict[int, tuple[int, int, int]]:
    """``{user_id: (rank, coins, xp)}`` for the field ``ranked`` (every earning
    player, ranked among themselves), before boosters; players paid nothing are
    left out."""
    places = paid_places(field=len(ranked), rules=rules)
    base = {
        c.user_id: (c.rank, *rules.table[c.rank - 1])
        for c in ranked
        if c.rank <= places and c.score > 0
    }
    cap_coins, cap_xp = purse_cap(earning_games=earning_games, rules=rules)
    coins = _cut({u: b[1] for u, b in base.items()}, cap_coins)
    xp = _cut({u: b[2] for u, b in base.items()}, cap_xp)
    return {u: (base[u][0], coins[u], xp[u]) for u in sorted(base) if coins[u] or xp[u]}


def prizes_preview(
    *, field: int, earning_games: int, rules: PrizeRules
) -> list[tuple[int, int]]:
    """The ``(coins, xp)`` of each paid rank if the arena ended now with this
    field and these games, one player per rank; empty below the minimum field."""
    ranked = [Contender(user_id=r, rank=r, score=1) for r in range(1, field + 1)]
    award = prizes_award(ranked=ranked, earning_games=earning_games, rules=rules)
    return [(award[r][1], award[r][2]) for r in sorted(award)]
