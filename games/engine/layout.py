"""Layouts: the line, the Cross spinner, Grand Cross branches, the Fives spinner
and the Spider centre, as tuples of ``(end_id, value, flags)``.

Every end is the tip of one arm. Arm and end ids:

* line (``block``, ``draw``, ``all_fives``, ``fives_and_threes``, ``catalan``,
  and ``fives`` before its spinner's short sides open): one arm ``"line"`` with
  the two ends ``"left"`` (shows the opening tile's low half) and ``"right"``.
* Cross, Grand Cross, Spider: the opening double is the centre; four arms
  ``"n"``, ``"e"``, ``"s"``, ``"w"``, one end each.
* a branching double ``x-x`` (every double after the opening in Grand Cross; the
  Fives spinner once both long sides are covered) starts two arms
  ``"x-x:l"`` and ``"x-x:r"``.

Decisions where RULES.md is silent:

* Cross: while any of the four arms is empty, only empty arms are playable; all
  empty arms are offered (they differ on the table, not in the rules).
* Grand Cross: a double played on a branch arm branches too; the opening double
  is the four-armed centre, not a branching point.
* Fives: an empty short side of the spinner is open but counts nothing in the
  end-sum until a tile is on it (the usual Fives/Muggins convention); the spinner
  counts both halves while it is the tip of a long side.
* Spider: only a double laid on an end may be closed; the centre never closes.
"""

from __future__ import annotations

from games.engine.state import BARE, CLOSED, DBL, FILL, SPIN, End
from games.engine.tiles import IS_DOUBLE, NAMES, NUM_MASK, TILE_HI, TILE_LO
from games.engine.variants import CROSS, GRAND_CROSS, LINE, SPIDER, SPINNER

COMPASS = ("n", "e", "s", "w")


def open_layout(layout: str, t: int) -> tuple[tuple[End, ...], int]:
    """Ends after the opening tile ``t``, and the spinner (Fives) or -1."""
    lo, hi = TILE_LO[t], TILE_HI[t]
    dbl = IS_DOUBLE[t]
    if layout == LINE:
        f = DBL if dbl else 0
        return (("left", lo, f), ("right", hi, f)), -1
    if layout == SPINNER:
        f = DBL | SPIN if dbl else 0
        return (("left", lo, f), ("right", hi, f)), (t if dbl else -1)
    if layout in (CROSS, GRAND_CROSS):
        return tuple((c, lo, DBL | FILL) for c in COMPASS), -1
    if layout == SPIDER:
        return tuple((c, lo, DBL) for c in COMPASS), -1
    raise ValueError(f"unknown layout {layout!r}")


def playable_ends(ends: tuple[End, ...]) -> list[End]:
    """The ends a tile may go on now (Cross: the empty arms first)."""
    fill = [e for e in ends if e[2] & FILL]
    if fill:
        return fill
    return [e for e in ends if not e[2] & CLOSED]


def ends_mask(ends: tuple[End, ...]) -> int:
    """Bitmask of every tile that fits some playable end."""
    m = 0
    for e in playable_ends(ends):
        m |= NUM_MASK[e[1]]
    return m


def attach(
    layout: str,
    ends: tuple[End, ...],
    i: int,
    t: int,
    spinner: int,
    spun: bool,
) -> tuple[tuple[End, ...], int, bool]:
    """Put tile ``t`` on end number ``i``; return (ends, spinner, spun).

    The caller has checked that the tile matches the end.
    """
    eid, v, _ = ends[i]
    lo = TILE_LO[t]
    nv = TILE_HI[t] if lo == v else lo
    if IS_DOUBLE[t]:
        if layout == SPINNER and spinner < 0:
            new_end: End = (eid, nv, DBL | SPIN)
            spinner = t
        else:
            new_end = (eid, nv, DBL)
        if layout == GRAND_CROSS:
            name = NAMES[t]
            return (
                (
                    ends[:i]
                    + (new_end,)
                    + ends[i + 1 :]
                    + ((name + ":l", nv, BARE), (name + ":r", nv, BARE))
                ),
                spinner,
                spun,
            )
    else:
        new_end = (eid, nv, 0)
    new_ends = ends[:i] + (new_end,) + ends[i + 1 :]
    if layout == SPINNER and spinner >= 0 and not spun:
        for e in new_ends:
            if e[2] & SPIN:
                break
        else:
            name = NAMES[spinner]
            d = TILE_LO[spinner]
            new_ends = new_ends + ((name + ":l", d, BARE), (name + ":r", d, BARE))
            spun = True
    return new_ends, spinner, spun


def end_sum(ends: tuple[End, ...], played: int) -> int:
    """Sum of the exposed numbers of the open ends; a double at an end counts
    both halves, the opening tile alone counts once (its two line ends)."""
    if played == 1:
        return ends[0][1] + ends[1][1]
    total = 0
    for _, v, f in ends:
        if f & (CLOSED | BARE):
            continue
        total += v + v if f & DBL else v
    return total


def close_ends(ends: tuple[End, ...], ids: tuple[str, ...]) -> tuple[End, ...]:
    """Spider: mark the given ends closed."""
    return tuple((e[0], e[1], e[2] | CLOSED) if e[0] in ids else e for e in ends)


def arm_of(end_id: str) -> str:
    """The arm an end belongs to."""
    if end_id in ("left", "right"):
        return "line"
    return end_id
