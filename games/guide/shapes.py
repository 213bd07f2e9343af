"""Example layouts as placed tiles: plain geometry for the guide's pictures.

A layout is built from arms. An arm starts at a point on the edge of the tile it
grows from and runs in one compass direction; each tile along it lies lengthwise,
except doubles, which lie crosswise (as on the table). Units: a tile is 2 × 1.
The tip of every arm gets an end marker showing the number that is open there, or
a cross when the end is closed (Spider).
"""

from __future__ import annotations

from dataclasses import dataclass

Tile = tuple[int, int]

# Unit steps of each compass direction (y grows downwards, as in SVG).
STEP = {"e": (1, 0), "w": (-1, 0), "n": (0, -1), "s": (0, 1)}


@dataclass(frozen=True, slots=True)
class Placed:
    """One tile on the picture: its box and the numbers of its two halves.

    ``first`` is the left (horizontal) or top (vertical) half.
    """

    x: float
    y: float
    w: float
    h: float
    first: int
    second: int
    spinner: bool = False


@dataclass(frozen=True, slots=True)
class Marker:
    """An end marker: a 1 × 1 box at (x, y) with the open number, or closed."""

    x: float
    y: float
    value: int
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Picture:
    """Everything the SVG drawer needs."""

    tiles: tuple[Placed, ...]
    markers: tuple[Marker, ...]


@dataclass(frozen=True, slots=True)
class Arm:
    """An arm to lay out: from (x, y) in ``direction``, the tiles in order.

    Each tile is written with the matching number first ((6, 3) on a 6 end).
    ``closed``: the arm's tip is a closed end. ``marker``: draw the end marker.
    """

    x: float
    y: float
    direction: str
    tiles: tuple[Tile, ...]
    closed: bool = False
    marker: bool = True


def centre_double(x: float, y: float, value: int, spinner: bool = False) -> Placed:
    """A double standing upright with its centre at (x, y)."""
    return Placed(x - 0.5, y - 1, 1, 2, value, value, spinner)


def arm_place(arm: Arm, open_value: int) -> tuple[list[Placed], Marker | None]:
    """The tiles of ``arm`` in place, and the marker at its tip.

    ``open_value`` is the number the arm starts from (its end marker when empty).
    """
    dx, dy = STEP[arm.direction]
    x, y = arm.x, arm.y
    value = open_value
    placed: list[Placed] = []
    for a, b in arm.tiles:
        double = a == b
        length = 1.0 if double else 2.0
        across = 2.0 if double else 1.0
        if dx:
            w, h = length, across
            left = x if dx > 0 else x - length
            box = (left, y - h / 2, w, h)
            first, second = (a, b) if dx > 0 else (b, a)
        else:
            w, h = across, length
            top = y if dy > 0 else y - length
            box = (x - w / 2, top, w, h)
            first, second = (a, b) if dy > 0 else (b, a)
        placed.append(Placed(*box, first, second))
        x, y = x + dx * length, y + dy * length
        value = b
    if not arm.marker:
        return placed, None
    # The marker's box sits just beyond the tip, centred on the arm's axis.
    gap = 0.15
    mx = x + gap if dx > 0 else x - 1 - gap if dx < 0 else x - 0.5
    my = y + gap if dy > 0 else y - 1 - gap if dy < 0 else y - 0.5
    return placed, Marker(mx, my, value, arm.closed)


def line_picture(tiles: tuple[Tile, ...], opening: int) -> Picture:
    """A line: ``tiles`` left to right, each written left half first.

    ``opening`` is the index of the opening tile; the arms grow away from it.
    """
    before = tiles[:opening]
    root = tiles[opening]
    after = tiles[opening + 1 :]
    double = root[0] == root[1]
    root_placed = (
        centre_double(0, 0, root[0]) if double else Placed(-1, -0.5, 2, 1, *root)
    )
    half = 0.5 if double else 1.0
    left_arm = Arm(-half, 0, "w", tuple((b, a) for a, b in reversed(before)))
    right_arm = Arm(half, 0, "e", after)
    left, left_marker = arm_place(left_arm, root[0])
    right, right_marker = arm_place(right_arm, root[1])
    markers = tuple(m for m in (left_marker, right_marker) if m is not None)
    return Picture(tuple([*left, root_placed, *right]), markers)


def centre_picture(
    centre: int,
    arms: dict[str, tuple[Tile, ...]],
    *,
    spinner: bool = False,
    closed: frozenset[str] = frozenset(),
    extra: tuple[tuple[Arm, int], ...] = (),
) -> Picture:
    """A double in the centre with up to four arms ("n", "e", "s", "w").

    ``closed`` names arms whose tip is closed; ``extra`` adds arms that start
    elsewhere (branches from a later double), each with the number it starts from.
    """
    starts = {"n": (0.0, -1.0), "s": (0.0, 1.0), "e": (0.5, 0.0), "w": (-0.5, 0.0)}
    tiles: list[Placed] = [centre_double(0, 0, centre, spinner)]
    markers: list[Marker] = []
    for direction, arm_tiles in arms.items():
        x, y = starts[direction]
        arm = Arm(x, y, direction, arm_tiles, closed=direction in closed)
        placed, marker = arm_place(arm, centre)
        tiles.extend(placed)
        if marker is not None:
            markers.append(marker)
    for arm, value in extra:
        placed, marker = arm_place(arm, value)
        tiles.extend(placed)
        if marker is not None:
            markers.append(marker)
    return Picture(tuple(tiles), tuple(markers))
