"""Deal tables for the guide, read from the engine's own deal rule.

Every figure comes from ``options_for`` (which takes the tiles per seat from
``variants.deal_size`` and refuses combinations a room cannot choose), so the
guide cannot drift from what the tables deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import InvalidOptions, options_for
from games.engine.tiles import set_size
from games.engine.variants import VARIANTS


@dataclass(frozen=True, slots=True)
class DealCell:
    """Tiles each seat takes, and the tiles left over (stock or set aside)."""

    seats: int
    tiles: int
    left: int


@dataclass(frozen=True, slots=True)
class DealRow:
    """One set (or one tiles-each choice) across the seat counts."""

    set_max: int
    set_tiles: int
    tiles_choice: int | None
    cells: tuple[DealCell | None, ...]


@dataclass(frozen=True, slots=True)
class DealTable:
    """``deal`` is the engine's deal rule: "standard" or the "002" house deal."""

    deal: str
    seats: tuple[int, ...]
    rows: tuple[DealRow, ...]


def _cell(variant: str, set_max: int, seats: int, **overrides: Any) -> DealCell | None:
    try:
        options = options_for(variant, set_max=set_max, seats=seats, **overrides)
    except InvalidOptions:
        return None
    tiles = options.tiles_per_seat
    return DealCell(seats=seats, tiles=tiles, left=set_size(set_max) - tiles * seats)


def deal_tables(variant: str) -> list[DealTable]:
    """The deal tables of a variant: the standard deal, then any house deal."""
    spec = VARIANTS[variant]
    tables = []
    for deal in spec.choices.get("deal", ("standard",)):
        rows = []
        for set_max in spec.sets:
            for choice in spec.choices.get("tiles_per_seat", (None,)):
                extra: dict[str, Any] = {"deal": deal} if "deal" in spec.choices else {}
                if choice is not None:
                    extra["tiles_per_seat"] = choice
                cells = tuple(_cell(variant, set_max, n, **extra) for n in spec.seats)
                rows.append(DealRow(set_max, set_size(set_max), choice, cells))
        tables.append(DealTable(deal, spec.seats, tuple(rows)))
    return tables
