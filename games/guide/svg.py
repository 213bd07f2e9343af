"""Draw an example layout (``shapes.Picture``) as inline SVG markup.

Pure: a picture and a title in, a string out. The only text that reaches the
markup from outside is the title, escaped here; numbers are formatted from ints.
Tiles are rounded rectangles; 1–6 are drawn as pips and 7–12 as digits, as on the
table; blanks are empty.
"""

from __future__ import annotations

from html import escape

from games.guide.shapes import Marker, Picture, Placed

UNIT = 30  # px per tile unit: a tile is 60 × 30 px
MARGIN = 0.3  # units of empty space round the picture
INSET = 0.04  # units between neighbouring tiles

TILE_FILL = "#fffdf6"
SPINNER_FILL = "#ffe58a"
INK = "#1d2a24"
FELT = "#11533d"
CLOSED = "#c62828"

# Cells of a 3×3 grid (1 = top left … 9 = bottom right) holding each count's pips.
PIPS = {
    1: (5,),
    2: (3, 7),
    3: (3, 5, 7),
    4: (1, 3, 7, 9),
    5: (1, 3, 5, 7, 9),
    6: (1, 3, 4, 6, 7, 9),
}
# In the half of a tile lying across, the six runs along the tile.
PIPS_ACROSS = {**PIPS, 6: (1, 2, 3, 7, 8, 9)}


def _n(value: float) -> str:
    """A coordinate in px, short and exact enough."""
    return f"{value * UNIT:.1f}".rstrip("0").rstrip(".")


def _half(x: float, y: float, value: int, across: bool) -> list[str]:
    """The pips or digit of one half: a 1 × 1 square at (x, y)."""
    if value <= 0:
        return []
    if value > 6:
        return [
            f'<text x="{_n(x + 0.5)}" y="{_n(y + 0.5)}" fill="{INK}" '
            f'font-size="{_n(0.6)}" font-weight="700" text-anchor="middle" '
            f'dy="0.35em" font-family="sans-serif">{value}</text>'
        ]
    out = []
    for cell in (PIPS_ACROSS if across else PIPS)[value]:
        col, row = (cell - 1) % 3, (cell - 1) // 3
        cx, cy = x + 0.22 + col * 0.28, y + 0.22 + row * 0.28
        out.append(
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(0.085)}" fill="{INK}"/>'
        )
    return out


def _tile(t: Placed) -> list[str]:
    fill = SPINNER_FILL if t.spinner else TILE_FILL
    x, y, w, h = t.x + INSET, t.y + INSET, t.w - 2 * INSET, t.h - 2 * INSET
    out = [
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
        f'rx="{_n(0.14)}" fill="{fill}" stroke="{INK}" stroke-width="1.2"/>'
    ]
    across = t.w > t.h
    if across:
        mid = t.x + t.w / 2
        out.append(
            f'<line x1="{_n(mid)}" y1="{_n(y + 0.15)}" x2="{_n(mid)}" '
            f'y2="{_n(y + h - 0.15)}" stroke="{INK}" stroke-width="1"/>'
        )
        out += _half(t.x, t.y, t.first, True) + _half(mid, t.y, t.second, True)
    else:
        mid = t.y + t.h / 2
        out.append(
            f'<line x1="{_n(x + 0.15)}" y1="{_n(mid)}" x2="{_n(x + w - 0.15)}" '
            f'y2="{_n(mid)}" stroke="{INK}" stroke-width="1"/>'
        )
        out += _half(t.x, t.y, t.first, False) + _half(t.x, mid, t.second, False)
    return out


def _marker(m: Marker) -> list[str]:
    dash = "" if m.closed else ' stroke-dasharray="4 3"'
    box = (
        f'<rect x="{_n(m.x + 0.05)}" y="{_n(m.y + 0.05)}" width="{_n(0.9)}" '
        f'height="{_n(0.9)}" rx="{_n(0.18)}" fill="none" '
        f'stroke="{CLOSED if m.closed else "#ffffff"}" stroke-width="1.5"'
        f"{dash}/>"
    )
    text = "✕" if m.closed else str(m.value)
    colour = "#ffcdd2" if m.closed else "#ffffff"
    return [
        box,
        f'<text x="{_n(m.x + 0.5)}" y="{_n(m.y + 0.5)}" fill="{colour}" '
        f'font-size="{_n(0.55)}" font-weight="700" text-anchor="middle" '
        f'dy="0.35em" font-family="sans-serif">{text}</text>',
    ]


def picture_svg(picture: Picture, *, title: str, ident: str) -> str:
    """The picture as an ``<svg>`` element, labelled by ``title``.

    ``ident`` becomes the title element's id (letters, digits and hyphens only).
    """
    safe_id = "".join(c for c in ident if c.isalnum() or c == "-") or "layout"
    boxes = [(t.x, t.y, t.x + t.w, t.y + t.h) for t in picture.tiles]
    boxes += [(m.x, m.y, m.x + 1, m.y + 1) for m in picture.markers]
    left = min(b[0] for b in boxes) - MARGIN
    top = min(b[1] for b in boxes) - MARGIN
    width = max(b[2] for b in boxes) + MARGIN - left
    height = max(b[3] for b in boxes) + MARGIN - top
    body: list[str] = [
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(width)}" '
        f'height="{_n(height)}" rx="{_n(0.3)}" fill="{FELT}"/>'
    ]
    for tile in picture.tiles:
        body += _tile(tile)
    for marker in picture.markers:
        body += _marker(marker)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rules-layout" '
        f'viewBox="{_n(left)} {_n(top)} {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" role="img" '
        f'aria-labelledby="{safe_id}">'
        f'<title id="{safe_id}">{escape(title)}</title>' + "".join(body) + "</svg>"
    )
