"""The nine variant presets of RULES.md §2 and what a room may choose in each.

A variant is a named preset of rule options: the set(s), seat counts, partnership
rule, deal table, stock rule, layout, opening rule and scoring. ``VARIANTS`` is what
the Play page builds its form from; ``Options`` (options.py) holds one room's choice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.messages import Text, gettext_noop, pgettext_noop, text_in

# The context of every variant's name in the catalogs: "Draw" and "Block" are
# also things a player does. Where a name is shown it is translated in it.
TITLE_CONTEXT = "domino game"

STANDARD_TARGETS = (50, 100, 150, 200, 250)

# Stock rules.
STOCK_NONE = "none"  # undealt tiles are set aside; a seat with no play passes
STOCK_UNTIL = "until"  # draw until playable or the stock is empty, then pass
STOCK_ONE = "one"  # draw one tile and the turn ends; the last two are never drawn

# Layouts.
LINE = "line"
CROSS = "cross"
GRAND_CROSS = "grand_cross"
SPINNER = "spinner"
SPIDER = "spider"

# Opening rules.
HIGHEST_DOUBLE = "highest_double"  # the highest double dealt must be played first
HIGHEST_DOUBLE_ANY = "highest_double_any"  # its holder opens with any tile
WINNER = "winner"  # hand 1 as HIGHEST_DOUBLE; later the last winner, any tile
LOWEST_DOUBLE = "lowest_double"  # Spider: 1-1 first, then 2-2 ... 0-0 last

# What happens when the opening needs a double and none was dealt.
REDEAL = "redeal"
HEAVIEST = "heaviest"


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """One variant preset: what is fixed, what a room may choose."""

    id: str
    title: str
    summary: str
    sets: tuple[int, ...]
    default_set: int
    seats: tuple[int, ...]
    partnership: str  # "never", "optional" or "forced" (4 seats only)
    targets: tuple[int, ...]
    default_target: int
    layout: str
    stock: str
    scoring: str
    opening: str
    no_double: str
    choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    reserve: int = 0  # stock tiles that are never drawn

    def title_text(self) -> Text:
        """The variant's name, to render in a reader's language."""
        return text_in(TITLE_CONTEXT, self.title)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description for the Play page form."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "sets": list(self.sets),
            "default_set": self.default_set,
            "seats": list(self.seats),
            "partnership": self.partnership,
            "targets": list(self.targets),
            "default_target": self.default_target,
            "layout": self.layout,
            "stock": self.stock,
            "scoring": self.scoring,
            "choices": {k: list(v) for k, v in self.choices.items()},
        }


def deal_size(
    variant: str, set_max: int, seats: int, deal: str, tiles_per_seat: int = 0
) -> int | None:
    """Tiles dealt to each seat, or None when the table has no entry."""
    if variant == "block":
        if deal == "002":
            return 7
        if seats == 4:
            return {6: 6, 9: 9, 12: 12}[set_max]
        return {2: 8, 3: 6, 5: 5}.get(seats)
    if variant == "draw":
        if deal == "002":
            return {2: 7, 3: 5, 4: 5}.get(seats)
        return {2: 7, 3: 5, 4: 4, 5: 3}.get(seats)
    if variant in ("cross", "grand_cross"):
        if set_max == 6:
            return {2: 7, 3: 5, 4: 4, 5: 3}.get(seats)
        return 7 if seats <= 3 else 5
    if variant in ("all_fives", "fives_and_threes"):
        return 5
    if variant == "fives":
        return 7 if seats == 2 else 5
    if variant == "catalan":
        return tiles_per_seat or 7
    if variant == "spider":
        return 7
    return None


_BLOCK_DRAW_CHOICES: dict[str, tuple[Any, ...]] = {
    "deal": ("standard", "002"),
    "opening": (HIGHEST_DOUBLE, WINNER),
    "no_double": (REDEAL, HEAVIEST),
}


def _spec(**kw: Any) -> VariantSpec:
    return VariantSpec(**kw)


VARIANTS: dict[str, VariantSpec] = {
    s.id: s
    for s in (
        _spec(
            id="block",
            title=pgettext_noop("domino game", "Block"),
            summary=gettext_noop(
                "Match a tile to either end of the line. There is no drawing: a "
                "player who cannot play passes. The holder of the highest double "
                "opens with it. The hand ends when someone plays the last tile "
                "(scoring every pip left in the losers' hands) or nobody can play "
                "(lowest total wins the difference). Four players may play in "
                "partnerships, 0+2 against 1+3."
            ),
            sets=(6, 9, 12),
            default_set=6,
            seats=(2, 3, 4, 5),
            partnership="optional",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=LINE,
            stock=STOCK_NONE,
            scoring="block",
            opening=HIGHEST_DOUBLE,
            no_double=REDEAL,
            choices=dict(_BLOCK_DRAW_CHOICES),
        ),
        _spec(
            id="draw",
            title=pgettext_noop("domino game", "Draw"),
            summary=gettext_noop(
                "Like Block, but a player who cannot play draws from the stock "
                "until a tile fits or the stock is empty, and passes only then. "
                "The highest double opens. Going out scores the pips left in the "
                "losers' hands; a blocked hand goes to the lowest total."
            ),
            sets=(6, 9, 12),
            default_set=6,
            seats=(2, 3, 4, 5),
            partnership="optional",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=LINE,
            stock=STOCK_UNTIL,
            scoring="block",
            opening=HIGHEST_DOUBLE,
            no_double=REDEAL,
            choices=dict(_BLOCK_DRAW_CHOICES),
        ),
        _spec(
            id="cross",
            title=pgettext_noop("domino game", "Cross"),
            summary=gettext_noop(
                "The opening double is a spinner with four arms. The four plays "
                "after it must go on four different arms; then any arm's end is "
                "open. Draw until you can play. Scoring as in Draw."
            ),
            sets=(6, 9, 12),
            default_set=6,
            seats=(2, 3, 4, 5),
            partnership="never",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=CROSS,
            stock=STOCK_UNTIL,
            scoring="block",
            opening=HIGHEST_DOUBLE,
            no_double=REDEAL,
        ),
        _spec(
            id="grand_cross",
            title=pgettext_noop("domino game", "Grand Cross"),
            summary=gettext_noop(
                "Cross with branching doubles: after the four arms are filled, "
                "every double played on an arm continues it and starts two new "
                "arms from its sides, adding two ends. Draw until you can play. "
                "Scoring as in Draw."
            ),
            sets=(6, 9, 12),
            default_set=9,
            seats=(2, 3, 4, 5),
            partnership="never",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=GRAND_CROSS,
            stock=STOCK_UNTIL,
            scoring="block",
            opening=HIGHEST_DOUBLE,
            no_double=REDEAL,
        ),
        _spec(
            id="all_fives",
            title=pgettext_noop("domino game", "All Fives"),
            summary=gettext_noop(
                "Five tiles each. The holder of the highest double opens with any "
                "tile. After each play, if the open ends add up to a multiple of "
                "five (a double at an end counts both halves), claim those points "
                "before play goes on, or an opponent may call Muggins and take "
                "them. With no play, draw one tile and your turn ends; the last two "
                "tiles are never drawn. Going out or winning a block also scores "
                "the losers' pips, rounded to the nearest five."
            ),
            sets=(6, 9, 12),
            default_set=6,
            seats=(2, 3, 4),
            partnership="optional",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=LINE,
            stock=STOCK_ONE,
            scoring="all_fives",
            opening=HIGHEST_DOUBLE_ANY,
            no_double=REDEAL,
            reserve=2,
        ),
        _spec(
            id="fives_and_threes",
            title=pgettext_noop("domino game", "Fives and Threes"),
            summary=gettext_noop(
                "As All Fives, but an end total divisible by five or by three "
                "scores that many points, once (15 is worth 15). Claim them or "
                "risk Muggins. The hand bonus is the exact pip difference."
            ),
            sets=(6, 9, 12),
            default_set=6,
            seats=(2, 3, 4),
            partnership="optional",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=LINE,
            stock=STOCK_ONE,
            scoring="fives_and_threes",
            opening=HIGHEST_DOUBLE_ANY,
            no_double=REDEAL,
            reserve=2,
        ),
        _spec(
            id="fives",
            title=pgettext_noop("domino game", "Fives (doble eje)"),
            summary=gettext_noop(
                "The first double played is the spinner: tiles go on its long "
                "sides first, then on its short sides too. Whenever the open ends "
                "add up to a multiple of five you score it at once. Draw until you "
                "can play. Going out or winning a block scores the others' pips "
                "rounded to five. The first to the target wins at once."
            ),
            sets=(6,),
            default_set=6,
            seats=(2, 3, 4),
            partnership="never",
            targets=STANDARD_TARGETS,
            default_target=100,
            layout=SPINNER,
            stock=STOCK_UNTIL,
            scoring="fives",
            opening=WINNER,
            no_double=HEAVIEST,
        ),
        _spec(
            id="catalan",
            title=pgettext_noop("domino game", "Catalan (Dòmino)"),
            summary=gettext_noop(
                "Deal 5 or 7 tiles each; the rest is the stock. The highest double "
                "opens (else the heaviest tile). Draw until you can play. Going "
                "out takes the opponents' pips; in a blocked game the lowest hand "
                "(or pair) takes every pip still in hands, its own included. Four "
                "players always play in pairs."
            ),
            sets=(6,),
            default_set=6,
            seats=(2, 3, 4),
            partnership="forced",
            targets=(50, 100, 150),
            default_target=100,
            layout=LINE,
            stock=STOCK_UNTIL,
            scoring="catalan",
            opening=HIGHEST_DOUBLE,
            no_double=HEAVIEST,
            choices={"tiles_per_seat": (5, 7)},
        ),
        _spec(
            id="spider",
            title=pgettext_noop("domino game", "Spider"),
            summary=gettext_noop(
                "Two players, seven tiles each. The lowest double (1-1 first, 0-0 "
                "last) opens in the centre, open on four sides. You may lay "
                "several doubles in one move and close any double you lay. Draw "
                "until you can play. Scores are penalties: the loser is charged "
                "its own pips (a lone 0-0 counts 25); whoever reaches the target "
                "loses."
            ),
            sets=(6,),
            default_set=6,
            seats=(2,),
            partnership="never",
            targets=(50, 70, 100, 120),
            default_target=100,
            layout=SPIDER,
            stock=STOCK_UNTIL,
            scoring="spider",
            opening=LOWEST_DOUBLE,
            no_double=REDEAL,
        ),
    )
}
