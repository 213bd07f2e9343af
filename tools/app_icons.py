#!/usr/bin/env python3
"""Draw the installed app's icons: ``static/img/app/``.

    .venv/bin/python tools/app_icons.py [output folder]

The site's own artwork (``tools/share_artwork.py``): the felt, lighter in the
middle, and the golden double-six spinner beside an ivory tile, drawn with the
replay cards' own tiles (``games.replays.picture``). Three shapes, each named in
the web app manifest (``config.webapp``):

- ``icon-<size>.png`` (192, 512): "any" purpose, a rounded square of felt on a
  transparent ground, the tiles filling most of it;
- ``maskable-<size>.png`` (192, 512): felt to every edge, the tiles inside the
  middle circle of 80 % that any mask shape keeps;
- ``icon-180.png``: the apple-touch-icon, felt to every edge (iOS rounds it).

No words: one picture serves every language. The PNGs are committed; run this
again after changing the drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from share_artwork import SHADOW, _felt  # noqa: E402

from games.replays.picture import (  # noqa: E402 (after the path it needs)
    SPINNER_EDGE,
    SPINNER_FILL,
    draw_tile,
)

OUTPUT = ROOT / "static" / "img" / "app"
SUPERSAMPLE = 4  # drawn this much larger, then reduced: smooth edges and pips
# (file stem, size in px, full bleed, half-tile side as a share of the size)
ICONS = (
    ("icon-192", 192, False, 0.30),
    ("icon-512", 512, False, 0.30),
    ("maskable-192", 192, True, 0.25),
    ("maskable-512", 512, True, 0.25),
    ("icon-180", 180, True, 0.28),
)
CORNER = 0.22  # the rounded square's corner radius, as a share of the size


def _tiles(draw: ImageDraw.ImageDraw, size: int, u: float) -> None:
    """The spinner 6-6 and an ivory 3-5, upright side by side, centred."""
    gap = u * 0.16
    x = (size - (2 * u + gap)) / 2
    y = (size - 2 * u) / 2
    lift = u * 0.07
    for left, tile, colours in (
        (x, (6, 6), {"fill": SPINNER_FILL, "edge": SPINNER_EDGE}),
        (x + u + gap, (3, 5), {}),
    ):
        draw.rounded_rectangle(
            (left + lift, y + lift * 1.4, left + u + lift, y + 2 * u + lift * 1.4),
            radius=u * 0.14,
            fill=SHADOW,
        )
        draw_tile(draw, left, y, tile, u=u, upright=True, **colours)


def icon(size: int, *, bleed: bool, share: float) -> Image.Image:
    """One icon of ``size`` px: felt (to every edge if ``bleed``), the tiles."""
    big = size * SUPERSAMPLE
    felt = _felt(big, big).convert("RGBA")
    if bleed:
        image = felt
    else:
        image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        mask = Image.new("L", (big, big), 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, big - 1, big - 1), radius=big * CORNER, fill=255
        )
        image.paste(felt, (0, 0), mask)
    _tiles(ImageDraw.Draw(image), big, big * share)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def tiles_within(share: float) -> float:
    """The distance from the centre to the tiles' farthest corner, as a share of
    the size: a maskable icon keeps it within 0.4 (the safe circle)."""
    half_w = (2 * share + share * 0.16) / 2
    return float((half_w**2 + share**2) ** 0.5)


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else OUTPUT
    out.mkdir(parents=True, exist_ok=True)
    for stem, size, bleed, share in ICONS:
        if bleed and stem.startswith("maskable"):
            assert tiles_within(share) <= 0.4, stem
        path = out / f"{stem}.png"
        picture = icon(size, bleed=bleed, share=share)
        (picture.convert("RGB") if bleed else picture).save(
            path, format="PNG", optimize=True
        )
        print(f"{path}: {size} × {size}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
