"""The Swiss events' settings, with their defaults (docs/tournaments.md, "Swiss
events")."""

from __future__ import annotations

from django.conf import settings

ROUNDS = (1, 11)  # fewest and most rounds an event may have
ROUND_MINUTES = (10, 240)  # from one round's start to the next's, shortest and longest
NAME = (3, 80)
# How far ahead an event may be scheduled: not sooner (players need time to see
# it and join), not later (nobody plans further).
LEAD_MINUTES = (5, 30 * 24 * 60)
# Percent of the pot by final rank, best first, for a field of at least ``players``
# who played a game (the first row whose floor the field reaches, from the largest).
# The whole pot, no commission; the rounding's remainder goes to the first place.
DEFAULT_SHARES: list[tuple[int, tuple[int, ...]]] = [
    (32, (40, 25, 15, 10, 10)),
    (16, (50, 30, 20)),
    (8, (60, 40)),
    (1, (100,)),
]


def shares_for(players: int) -> tuple[int, ...]:
    """The payout table for a field of ``players`` who played (at least 1)."""
    rows = getattr(settings, "TOURNAMENTS_SWISS_SHARES", DEFAULT_SHARES)
    for floor, shares in sorted(rows, key=lambda r: -r[0]):
        if players >= floor:
            return tuple(shares)
    return (100,)


def share_rows() -> list[tuple[int, tuple[int, ...]]]:
    """The published payout table, smallest field first."""
    rows = getattr(settings, "TOURNAMENTS_SWISS_SHARES", DEFAULT_SHARES)
    return sorted(((int(f), tuple(s)) for f, s in rows), key=lambda r: r[0])


def clock_seconds() -> int:
    return int(settings.MATCHMAKING_CLOCK_SECONDS)


def hand_pause_seconds() -> int:
    return int(settings.MATCHMAKING_HAND_PAUSE_SECONDS)
