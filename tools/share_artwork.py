#!/usr/bin/env python3
"""Draw the site's share picture: ``static/img/share.png``, 1200 × 630.

    .venv/bin/python tools/share_artwork.py [output.png]

The card of the pages without a picture of their own (the home page, the rules,
a player's page): a cross of tiles round a double-six spinner on the felt, drawn
with the replay cards' own tiles (``games.replays.picture``) so the two look
alike. No words: one picture serves every language. The PNG is committed; run
this again after changing the drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.replays.picture import (  # noqa: E402 (after the path it needs)
    HEIGHT,
    SCALE,
    SPINNER_EDGE,
    SPINNER_FILL,
    WIDTH,
    Tile,
    draw_tile,
)

OUTPUT = ROOT / "static" / "img" / "share.png"
CENTRE_LIGHT = (0x1B, 0x63, 0x4A)  # the felt under a lamp
EDGE_DARK = (0x0F, 0x3D, 0x2E)  # site.css --bg
SHADOW = (0x0A, 0x30, 0x23)
UNIT = 72  # px per half of a tile


def _felt(width: int, height: int) -> Image.Image:
    """The felt, lighter in the middle."""
    glow = Image.radial_gradient("L").resize((width, height))
    light = Image.new("RGB", (width, height), CENTRE_LIGHT)
    dark = Image.new("RGB", (width, height), EDGE_DARK)
    # radial_gradient is black in the centre and white at the rim.
    return Image.composite(dark, light, glow.point(lambda v: min(255, v * 3 // 2)))


def _place(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    tile: Tile,
    *,
    u: float,
    upright: bool,
    spinner: bool = False,
) -> None:
    w, h = (u, 2 * u) if upright else (2 * u, u)
    lift = u * 0.07
    draw.rounded_rectangle(
        (x + lift, y + lift * 1.4, x + w + lift, y + h + lift * 1.4),
        radius=u * 0.14,
        fill=SHADOW,
    )
    colours = {"fill": SPINNER_FILL, "edge": SPINNER_EDGE} if spinner else {}
    draw_tile(draw, x, y, tile, u=u, upright=upright, **colours)


def artwork() -> Image.Image:
    """The picture: a cross round the spinner, its long sides east and west."""
    width, height = WIDTH * SCALE, HEIGHT * SCALE
    image = _felt(width, height)
    draw = ImageDraw.Draw(image)
    u = UNIT * SCALE
    gap = u * 0.12
    cx, cy = width / 2, height / 2
    _place(draw, cx - u / 2, cy - u, (6, 6), u=u, upright=True, spinner=True)
    # East: 6-4, the double 4-4 crosswise, 4-1; west, outward: 6-5, 5-5, 5-2.
    x = cx + u / 2 + gap
    for tile in ((6, 4), (4, 4), (4, 1)):
        double = tile[0] == tile[1]
        _place(draw, x, cy - (u if double else u / 2), tile, u=u, upright=double)
        x += (u if double else 2 * u) + gap
    x = cx - u / 2 - gap
    for tile in ((5, 6), (5, 5), (2, 5)):
        double = tile[0] == tile[1]
        x -= u if double else 2 * u
        _place(draw, x, cy - (u if double else u / 2), tile, u=u, upright=double)
        x -= gap
    # North and south, on the spinner's short sides.
    _place(draw, cx - u / 2, cy - u - gap - 2 * u, (3, 6), u=u, upright=True)
    _place(draw, cx - u / 2, cy + u + gap, (6, 2), u=u, upright=True)
    return image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else OUTPUT
    out.parent.mkdir(parents=True, exist_ok=True)
    artwork().save(out, format="PNG", optimize=True)
    print(f"{out}: {WIDTH} × {HEIGHT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
