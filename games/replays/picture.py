"""Draw a layout as a 1200 × 630 PNG: the picture of a replay's share card.

Pure: a ``Board`` in, PNG bytes out (Pillow only). The board is drawn as the
table page draws it: one band per arm on the green felt, each arm's tiles in a
row that snakes onto more rows when it is long (the next row runs back the other
way, so neighbours stay neighbours), doubles crosswise, the tile an arm grows
from shown small at the band's head. Tiles are ivory with pips for 1–6 and digits
for 7–12, blanks empty. The picture has no words, so one image serves every
language.

What is drawn is exactly the board's tiles: the caller decides what may be shown.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from games.guide.svg import PIPS, PIPS_ACROSS  # the guide's pips: one drawing of a tile

Tile = tuple[int, int]
RGB = tuple[int, int, int]

WIDTH, HEIGHT = 1200, 630
# Drawn at this many times the size, then scaled down: smooth edges and round pips
# (Pillow draws shapes without antialiasing).
SCALE = 2

FELT: RGB = (0x14, 0x51, 0x3C)  # site.css --felt
BAND: RGB = (0x0E, 0x45, 0x33)  # table.css .arm
IVORY: RGB = (0xFF, 0xFD, 0xF5)
EDGE: RGB = (0x2B, 0x2B, 0x2B)
DIVIDER: RGB = (0x88, 0x88, 0x88)
INK: RGB = (0x1A, 0x1A, 0x1A)
SPINNER_FILL: RGB = (0xFF, 0xE5, 0x8A)
SPINNER_EDGE: RGB = (0xB5, 0x89, 0x00)
HUB_FILL: RGB = (0xE7, 0xF0, 0xFF)


MARGIN = 0.05  # of the height, round the whole picture
LARGEST_UNIT = 90  # px per half at most (final size): a short layout, large
SMALLEST_UNIT = 8  # px per half at least: 91 tiles of a double-twelve set fit
HEAD = 0.7  # the head tile's size, as a share of a tile on the band
COLUMN_GAP = 16 * SCALE  # px between columns of bands (canvas size)


@dataclass(frozen=True, slots=True)
class Band:
    """One arm: the tile it grows from (``None`` for the line, which holds its
    opening tile), and its tiles outward, each with the matching number first."""

    head: Tile | None
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """The tiles on the table, as bands; the spinner and the opening tile are
    coloured as on the table page."""

    bands: tuple[Band, ...] = ()
    spinner: Tile | None = None
    root: Tile | None = None

    def tiles(self) -> set[Tile]:
        """Every tile the picture shows, each as (low, high)."""
        shown: set[Tile] = set()
        for band in self.bands:
            for a, b in band.tiles + ((band.head,) if band.head else ()):
                shown.add((min(a, b), max(a, b)))
        return shown


def _same(x: Tile | None, y: Tile | None) -> bool:
    return x is not None and y is not None and sorted(x) == sorted(y)


@dataclass(frozen=True, slots=True)
class _Sizes:
    """Lengths in canvas pixels for one tile size ``u`` (the side of a half)."""

    u: int

    @property
    def gap(self) -> int:
        return max(2 * SCALE, round(self.u * 0.12))

    @property
    def pad(self) -> int:
        return max(3 * SCALE, round(self.u * 0.25))

    @property
    def head(self) -> int:
        return round(self.u * HEAD)

    def item(self, tile: Tile) -> tuple[int, int]:
        """Width and height of a tile on a band: doubles stand crosswise."""
        return (self.u, 2 * self.u) if tile[0] == tile[1] else (2 * self.u, self.u)

    def rows(self, tiles: tuple[Tile, ...], width: int) -> list[list[Tile]]:
        """``tiles`` in rows of at most ``width`` px."""
        rows: list[list[Tile]] = [[]]
        used = 0
        for tile in tiles:
            need = self.item(tile)[0] + (self.gap if rows[-1] else 0)
            if rows[-1] and used + need > width:
                rows.append([])
                used, need = 0, self.item(tile)[0]
            rows[-1].append(tile)
            used += need
        return rows

    def row_size(self, row: list[Tile]) -> tuple[int, int]:
        """Width and height of a row of tiles (an empty row takes no room)."""
        widths = [self.item(t)[0] for t in row]
        gaps = self.gap * max(0, len(row) - 1)
        return sum(widths) + gaps, max((self.item(t)[1] for t in row), default=0)

    def head_width(self, band: Band) -> int:
        return self.head + self.pad if band.head is not None else 0

    def band_height(self, band: Band, width: int) -> int:
        rows = self.rows(band.tiles, width - 2 * self.pad - self.head_width(band))
        inner = sum(self.row_size(r)[1] for r in rows) + self.gap * (len(rows) - 1)
        if band.head is not None:
            inner = max(inner, 2 * self.head)
        return inner + 2 * self.pad

    def band_width(self, band: Band, width: int) -> int:
        rows = self.rows(band.tiles, width - 2 * self.pad - self.head_width(band))
        return (
            max(self.row_size(r)[0] for r in rows)
            + 2 * self.pad
            + self.head_width(band)
        )


@dataclass(frozen=True, slots=True)
class _Plan:
    sizes: _Sizes
    columns: list[list[Band]]
    width: int  # of a column
    heights: list[int]  # of each column


def _columns(bands: tuple[Band, ...], count: int) -> list[list[Band]]:
    per = -(-len(bands) // count)
    return [list(bands[i : i + per]) for i in range(0, len(bands), per)]


def _one_row(sizes: _Sizes, band: Band, width: int) -> bool:
    inner = width - 2 * sizes.pad - sizes.head_width(band)
    return len(sizes.rows(band.tiles, inner)) == 1


def _plan(board: Board, width: int, height: int) -> _Plan | None:
    """The largest tiles (then the fewest columns of bands) that fit the canvas.

    An arm off a double (a band with a head) is a few tiles: it keeps to one row
    if it can at all, as a cross reads best; the line snakes as it must.
    """
    for whole_arms in (True, False):
        best: _Plan | None = None
        for count in range(1, min(3, len(board.bands)) + 1):
            columns = _columns(board.bands, count)
            column_width = (width - COLUMN_GAP * (len(columns) - 1)) // len(columns)
            for u in range(LARGEST_UNIT * SCALE, SMALLEST_UNIT * SCALE - 1, -SCALE):
                if best is not None and u <= best.sizes.u:
                    break
                sizes = _Sizes(u)
                if column_width < sizes.head + 2 * u + 4 * sizes.pad:
                    continue
                if whole_arms and not all(
                    _one_row(sizes, b, column_width)
                    for b in board.bands
                    if b.head is not None
                ):
                    continue
                heights = [
                    sum(sizes.band_height(b, column_width) for b in column)
                    + sizes.gap * 2 * (len(column) - 1)
                    for column in columns
                ]
                if max(heights) <= height:
                    best = _Plan(sizes, columns, column_width, heights)
                    break
        if best is not None:
            return best
    return None


def _pips(
    draw: ImageDraw.ImageDraw, x: float, y: float, u: float, value: int, across: bool
) -> None:
    """The pips or digit of one half: a ``u`` × ``u`` square at (x, y)."""
    if value <= 0:
        return
    if value > 6:
        font = _font(round(u * (0.62 if value < 10 else 0.5)))
        draw.text((x + u / 2, y + u / 2), str(value), fill=INK, font=font, anchor="mm")
        return
    r = u * 0.09
    for cell in (PIPS_ACROSS if across else PIPS)[value]:
        col, row = (cell - 1) % 3, (cell - 1) // 3
        cx, cy = x + u * (0.22 + col * 0.28), y + u * (0.22 + row * 0.28)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw_tile(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    tile: Tile,
    *,
    u: float,
    upright: bool,
    fill: RGB = IVORY,
    edge: RGB = EDGE,
) -> None:
    """One tile with its top left corner at (x, y): ``tile[0]`` is its left half
    (lying across) or its top half (``upright``); ``u`` is the side of a half."""
    w, h = (u, 2 * u) if upright else (2 * u, u)
    line = max(1, round(u / 22))
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=u * 0.14, fill=fill, outline=edge, width=line
    )
    inset = u * 0.15
    if upright:
        draw.line((x + inset, y + u, x + w - inset, y + u), fill=DIVIDER, width=line)
        _pips(draw, x, y, u, tile[0], False)
        _pips(draw, x, y + u, u, tile[1], False)
    else:
        draw.line((x + u, y + inset, x + u, y + h - inset), fill=DIVIDER, width=line)
        _pips(draw, x, y, u, tile[0], True)
        _pips(draw, x + u, y, u, tile[1], True)


def _colours(board: Board, tile: Tile, *, head: bool) -> tuple[RGB, RGB]:
    if _same(tile, board.spinner) and tile[0] == tile[1]:
        return SPINNER_FILL, SPINNER_EDGE
    if head and _same(tile, board.root):
        return HUB_FILL, EDGE
    return IVORY, EDGE


def _draw_band(
    draw: ImageDraw.ImageDraw,
    board: Board,
    band: Band,
    sizes: _Sizes,
    left: int,
    top: int,
    *,
    width: int,
    box: int,
) -> int:
    """Draw ``band`` laid out in ``width`` px from (left, top), on a band ``box``
    px wide (at least what its rows take); return its height."""
    pad, gap = sizes.pad, sizes.gap
    height = sizes.band_height(band, width)
    draw.rounded_rectangle(
        (left, top, left + box, top + height), radius=pad * 1.4, fill=BAND
    )
    x0 = left + pad
    if band.head is not None:
        fill, edge = _colours(board, band.head, head=True)
        draw_tile(
            draw,
            x0,
            top + height / 2 - sizes.head,
            band.head,
            u=sizes.head,
            upright=True,
            fill=fill,
            edge=edge,
        )
        x0 += sizes.head_width(band)
    rows = sizes.rows(band.tiles, width - 2 * pad - sizes.head_width(band))
    inner = max(sizes.row_size(r)[0] for r in rows)
    y = top + pad
    if band.head is not None:
        content = sum(sizes.row_size(r)[1] for r in rows) + gap * (len(rows) - 1)
        y = top + (height - content) // 2
    for number, row in enumerate(rows):
        row_height = sizes.row_size(row)[1]
        back = number % 2 == 1
        # A row running back starts at the right, below where the last one ended.
        x = x0 + inner if back else x0
        for tile in row:
            w, h = sizes.item(tile)
            if back:
                x -= w
            fill, edge = _colours(board, tile, head=False)
            shown = (tile[1], tile[0]) if back and w > h else tile
            top_of_tile = y + (row_height - h) / 2
            draw_tile(
                draw,
                x,
                top_of_tile,
                shown,
                u=sizes.u,
                upright=h > w,
                fill=fill,
                edge=edge,
            )
            x = x - gap if back else x + w + gap
        y += row_height + gap
    return height


def board_png(board: Board) -> bytes:
    """The board on the felt, 1200 × 630, as PNG bytes."""
    canvas_w, canvas_h = WIDTH * SCALE, HEIGHT * SCALE
    image = Image.new("RGB", (canvas_w, canvas_h), FELT)
    draw = ImageDraw.Draw(image)
    margin = round(HEIGHT * MARGIN * SCALE)
    plan = _plan(board, canvas_w - 2 * margin, canvas_h - 2 * margin)
    if plan is not None:
        widths = [
            max(plan.sizes.band_width(b, plan.width) for b in column)
            for column in plan.columns
        ]
        left = (canvas_w - sum(widths) - COLUMN_GAP * (len(widths) - 1)) // 2
        for column, width, column_height in zip(
            plan.columns, widths, plan.heights, strict=True
        ):
            top = (canvas_h - column_height) // 2
            for band in column:
                top += _draw_band(
                    draw,
                    board,
                    band,
                    plan.sizes,
                    left,
                    top,
                    width=plan.width,
                    box=width,
                )
                top += plan.sizes.gap * 2
            left += width + COLUMN_GAP
    picture = image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()
