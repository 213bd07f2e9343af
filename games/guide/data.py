"""The variants the guide explains: a one-line summary and an example layout each.

The guide covers every preset of ``engine.VARIANTS``, in the same order as the
Play page; a variant's full text is the template ``games/rules/<id>.html``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from games.engine.variants import VARIANTS
from games.guide.shapes import Arm, Picture, centre_picture, line_picture

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise


@dataclass(frozen=True, slots=True)
class GuideEntry:
    """One variant's place in the guide."""

    id: str
    summary: _StrOrPromise
    picture: Callable[[], Picture]

    @property
    def template(self) -> str:
        return f"games/rules/{self.id}.html"


def _line_block() -> Picture:
    # 6-6 opened; 4-6 went left, 6-3 and 3-1 right: the ends are 4 and 1.
    return line_picture(((4, 6), (6, 6), (6, 3), (3, 1)), opening=1)


def _line_all_fives() -> Picture:
    # A 3 at one end and the 6-6 at the other: 3 + 12 = 15.
    return line_picture(((3, 5), (5, 5), (5, 6), (6, 6)), opening=1)


def _line_threes() -> Picture:
    # 4 + 5 = 9: no score in All Fives, 9 points in Fives and Threes.
    return line_picture(((4, 2), (2, 2), (2, 5)), opening=1)


def _line_catalan() -> Picture:
    return line_picture(((2, 5), (5, 5), (5, 1), (1, 1)), opening=1)


def _cross() -> Picture:
    return centre_picture(
        6, {"n": ((6, 2),), "e": ((6, 4),), "s": ((6, 1),), "w": ((6, 5), (5, 3))}
    )


def _grand_cross() -> Picture:
    # The 4-4 on the east arm branches: the arm goes on east, new arms go up and down.
    # Its box spans x 2.5–3.5 and y -1–1 (the centre double is 1 wide, 6-4 is 2 long).
    return centre_picture(
        6,
        {"n": ((6, 2),), "e": ((6, 4), (4, 4), (4, 7)), "s": ((6, 1),), "w": ((6, 5),)},
        extra=(
            (Arm(3.0, -1.0, "n", ((4, 0),)), 4),
            (Arm(3.0, 1.0, "s", ()), 4),
        ),
    )


def _spinner() -> Picture:
    # The spinner 5-5 with both long sides covered and one short side: 3 + 0 + 2 = 5.
    return centre_picture(
        5,
        {"w": ((5, 3),), "e": ((5, 0),), "n": ((5, 2),), "s": ()},
        spinner=True,
    )


def _spider() -> Picture:
    # 1-1 in the centre; the 3-3 on the east arm was closed.
    return centre_picture(
        1,
        {"n": ((1, 4),), "e": ((1, 3), (3, 3)), "s": ((1, 6),), "w": ()},
        closed=frozenset({"e"}),
    )


_ENTRIES = (
    GuideEntry(
        "block",
        _("The simplest line game: match the ends, and pass when you cannot play."),
        _line_block,
    ),
    GuideEntry(
        "draw",
        _("Block with a stock: draw until a tile fits instead of passing."),
        _line_block,
    ),
    GuideEntry(
        "cross",
        _("The opening double has four arms, and the first four plays fill them."),
        _cross,
    ),
    GuideEntry(
        "grand_cross",
        _("Cross with branches: every later double opens two new arms."),
        _grand_cross,
    ),
    GuideEntry(
        "all_fives",
        _(
            "Score when the open ends add up to a multiple of five: claim it or "
            "lose it to Muggins."
        ),
        _line_all_fives,
    ),
    GuideEntry(
        "fives_and_threes",
        _("All Fives where multiples of three score as well."),
        _line_threes,
    ),
    GuideEntry(
        "fives",
        _("The Spanish game on a yellow spinner: multiples of five score at once."),
        _spinner,
    ),
    GuideEntry(
        "catalan",
        _("The Catalan line game: whoever wins a blocked hand takes every pip."),
        _line_catalan,
    ),
    GuideEntry(
        "spider",
        _(
            "A duel for two from Italy: four ends from the start, closed doubles, "
            "penalty points."
        ),
        _spider,
    ),
)

GUIDE: dict[str, GuideEntry] = {e.id: e for e in _ENTRIES if e.id in VARIANTS}
