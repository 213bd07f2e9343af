"""Tiles as small ints, hands as bitmasks.

Tile ids are global: ``(a, b)`` with ``a <= b`` has id ``b * (b + 1) // 2 + a``.
The double-N set is then exactly ids ``0 .. set_size(N) - 1``, so one table serves
every set and a hand is an ``int`` whose bit ``t`` says that tile ``t`` is held.
"""

from __future__ import annotations

from collections.abc import Iterator

MAX_PIPS = 12
N_TILES_MAX = (MAX_PIPS + 1) * (MAX_PIPS + 2) // 2  # 91
ROOT = "root"
"""End id of the very first tile of a hand."""

TILE_LO: tuple[int, ...]
TILE_HI: tuple[int, ...]
_lo: list[int] = []
_hi: list[int] = []
for _b in range(MAX_PIPS + 1):
    for _a in range(_b + 1):
        _lo.append(_a)
        _hi.append(_b)
TILE_LO = tuple(_lo)
TILE_HI = tuple(_hi)
PIPS: tuple[int, ...] = tuple(a + b for a, b in zip(TILE_LO, TILE_HI, strict=True))
IS_DOUBLE: tuple[bool, ...] = tuple(
    a == b for a, b in zip(TILE_LO, TILE_HI, strict=True)
)
PAIRS: tuple[tuple[int, int], ...] = tuple(zip(TILE_LO, TILE_HI, strict=True))
NAMES: tuple[str, ...] = tuple(f"{a}-{b}" for a, b in PAIRS)

NUM_MASK: tuple[int, ...] = tuple(
    sum(1 << t for t in range(N_TILES_MAX) if n in (TILE_LO[t], TILE_HI[t]))
    for n in range(MAX_PIPS + 1)
)
"""``NUM_MASK[n]``: bitmask of every tile showing ``n`` (over the double-12 set)."""

DOUBLES_MASK = sum(1 << t for t in range(N_TILES_MAX) if IS_DOUBLE[t])


def tile_id(a: int, b: int) -> int:
    """Id of the tile ``(a, b)`` in either order."""
    if a > b:
        a, b = b, a
    return b * (b + 1) // 2 + a


def set_size(set_max: int) -> int:
    """Number of tiles in the double-``set_max`` set (28 / 55 / 91)."""
    return (set_max + 1) * (set_max + 2) // 2


def bits(mask: int) -> Iterator[int]:
    """Tile ids of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_pips(mask: int) -> int:
    """Sum of the pips of every tile in a bitmask."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def tile_pairs(mask: int) -> list[tuple[int, int]]:
    """The ``(a, b)`` pairs of a bitmask, lowest id first."""
    return [PAIRS[t] for t in bits(mask)]
