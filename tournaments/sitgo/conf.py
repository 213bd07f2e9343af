"""The sit-and-gos' settings, with their defaults (docs/tournaments.md, "Stake
sit-and-gos")."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from economy import conf as economy_conf

SIZES = (4, 8)
# Percent of the pot by final place, best first: the whole pot, no commission.
SHARES: dict[int, tuple[int, ...]] = {4: (65, 35), 8: (50, 30, 20)}
TABLE_SEATS = 4
DEFAULT_GAME: dict[str, Any] = {"variant": "block", "target": 50}


def entry_fees() -> list[int]:
    """The entries a player can choose: the economy's entry fees, smallest first."""
    return sorted(economy_conf.entry_fees())


def fill_seconds() -> int:
    """How long an open sit-and-go waits to fill after its first entry."""
    return int(getattr(settings, "SITGO_FILL_SECONDS", 600))


def noshow_seconds() -> int:
    """How long a seat may stay unconnected before it forfeits its game."""
    return int(getattr(settings, "SITGO_NOSHOW_SECONDS", 120))


def clock_seconds() -> int:
    return int(getattr(settings, "SITGO_CLOCK_SECONDS", 30))


def hand_pause_seconds() -> int:
    return int(getattr(settings, "SITGO_HAND_PAUSE_SECONDS", 5))


def game() -> tuple[str, dict[str, Any]]:
    """The variant and engine options of every sit-and-go table (4 seats, each
    player for themselves)."""
    spec = dict(getattr(settings, "SITGO_GAME", DEFAULT_GAME))
    variant = str(spec.pop("variant"))
    return variant, {**spec, "seats": TABLE_SEATS, "partnership": False}
