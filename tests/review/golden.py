"""The golden set of planted blunders (issue 48): positions written by hand
from RULES.md, each with a move any strong player knows is a mistake and the
better move, for the review to label.

A case is the deal (``hands``; ``stock`` the rest of the set in canonical
order unless given), the plays that lead to the position and the decision
there. Scores stay far from the target, so no hand can decide the match (a
match point is valued, never judged: ``games.review.single``). Positions are
late in the hand, so every sampled deal is solved to its end within the
standard review budget.

Building a position, the seat to move resolves what it must on the way:
a scoring play is claimed, a Spider double is left open, a seat with no play
draws or passes; every play of ``plays`` is stated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import (
    Action,
    Options,
    State,
    apply,
    current_seat,
    legal_actions,
    options_for,
)
from games.engine.tiles import PAIRS
from games.review import labels
from tests.support.positions import rig

Pair = tuple[int, int]
Step = tuple[int, Pair, str]

# The principles issue 48 names, each planted at least twice (``NAMED``), and
# the others a case may break.
PASSING_UP = "passing up points for nothing"
HEAVY_DOUBLE = "holding the heaviest double to the end"
OPEN_COUNT = "opening a count a partner cannot cover"
LET_DOMINO = "letting an opponent domino when a block was available"
INTO_MUGGINS = "playing into a Muggins"
CLOSE_OWN_END = "closing the end one's own last tile needs (Spider)"
NAMED = (PASSING_UP, HEAVY_DOUBLE, OPEN_COUNT, LET_DOMINO, INTO_MUGGINS)
PRINCIPLES = (*NAMED, CLOSE_OWN_END)


@dataclass(frozen=True)
class Planted:
    """One planted blunder: ``seat`` to move at the position the ``plays``
    reach from the deal; ``blunder`` is the mistake, ``better`` the move a
    strong player makes, ``expect`` the least label the review must give,
    ``why`` the reason in the position, ``principle`` the one it breaks (one
    of ``PRINCIPLES``). Seat 0 opens; ``options`` are rule options over the
    variant's defaults (``partnership``, ``set_max``, ``target``...)."""

    name: str
    variant: str
    hands: tuple[tuple[Pair, ...], ...]
    plays: tuple[Step, ...]
    seat: int
    blunder: Action
    better: Action
    expect: str
    why: str
    stock: tuple[Pair, ...] | None = None
    options: tuple[tuple[str, Any], ...] = ()
    principle: str = ""

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def rules(self) -> Options:
        """The case's rule options (the variant's defaults but ``options``)."""
        return options_for(self.variant, seats=self.seats, **dict(self.options))

    @property
    def partnership(self) -> bool:
        return self.rules.partnership


def _rest(case: Planted) -> list[Pair]:
    """The tiles of the set no hand holds, in canonical order."""
    held = {tuple(sorted(t)) for h in case.hands for t in h}
    top = case.rules.set_max
    return [p for p in PAIRS if p[1] <= top and p not in held]


def _forced(s: State, seat: int) -> Action | None:
    """What the seat to move does on the way to the next stated play: claim a
    score, leave a Spider double open, or draw/pass when nothing else is
    allowed; ``None`` when it has a real choice."""
    if s.phase == "claim":
        return Action.claim(s.pending)
    if s.phase == "close":
        return Action.continue_()
    acts = legal_actions(s, seat)
    if all(a.type in ("draw", "pass") for a in acts):
        return acts[0]
    return None


def position(case: Planted) -> State:
    """The state of ``case`` with ``case.seat`` to decide."""
    stock = list(case.stock) if case.stock is not None else _rest(case)
    s = rig(
        case.variant,
        [list(h) for h in case.hands],
        stock=stock,
        **dict(case.options),
    )
    for seat, tile, end in case.plays:
        s = apply(_reach(s, seat, Action.play(tile, end)), seat, Action.play(tile, end))
    return _reach(s, case.seat, case.blunder)


def _reach(s: State, seat: int, action: Action) -> State:
    """``s`` once the seats before ``seat`` have done what they must, with
    ``action`` legal for ``seat``."""
    while True:
        now = current_seat(s)
        assert now is not None, f"the hand ended before seat {seat} moved"
        if now == seat and action in legal_actions(s, seat):
            return s
        forced = _forced(s, now)
        if forced is None:
            raise AssertionError(f"seat {now} has a choice before seat {seat}")
        s = apply(s, now, forced)


def play(tile: Pair, end: str) -> Action:
    return Action.play(tile, end)


CLAIM = Action.claim
CONTINUE = Action.continue_()
INACCURACY, MISTAKE, BLUNDER = labels.INACCURACY, labels.MISTAKE, labels.BLUNDER

CASES: list[Planted] = []

# Planted blunders the review does not label as planted: kept out of
# ``CASES``, each with what the review answered (at the end of this module).
DISPUTED: list[Planted] = []

# All Fives and Fives and Threes: an end-sum scores only once claimed; an
# unclaimed score is the next opponent's Muggins (RULES.md 3.2), so continuing
# without claiming costs the points twice over against one opponent.
TWO = (
    ((5, 5), (0, 6), (1, 5), (0, 4), (4, 6)),
    ((0, 5), (1, 6), (4, 5), (2, 3), (3, 6)),
)
TWO_PLAYS: tuple[Step, ...] = (
    (0, (5, 5), "root"),
    (1, (0, 5), "left"),
    (0, (0, 6), "left"),
    (1, (1, 6), "left"),
    (0, (1, 5), "left"),
    (1, (4, 5), "left"),
)
FOUR = (
    ((5, 5), (1, 5), (0, 3), (6, 6), (1, 1)),
    ((0, 5), (4, 5), (1, 2), (2, 6), (0, 0)),
    ((0, 6), (2, 4), (3, 3), (1, 3), (4, 4)),
    ((1, 6), (2, 3), (3, 5), (0, 1), (5, 6)),
)
FOUR_PLAYS: tuple[Step, ...] = (
    (0, (5, 5), "root"),
    (1, (0, 5), "left"),
    (2, (0, 6), "left"),
    (3, (1, 6), "left"),
    (0, (1, 5), "left"),
    (1, (4, 5), "left"),
    (2, (2, 4), "left"),
    (3, (2, 3), "left"),
)
THREE = (
    ((5, 5), (1, 6), (0, 4), (2, 2), (3, 4)),
    ((0, 5), (1, 5), (2, 6), (3, 3), (0, 1)),
    ((0, 6), (4, 5), (2, 3), (1, 1), (6, 6)),
)
THREE_PLAYS: tuple[Step, ...] = (
    (0, (5, 5), "root"),
    (1, (0, 5), "left"),
    (2, (0, 6), "left"),
    (0, (1, 6), "left"),
    (1, (1, 5), "left"),
    (2, (4, 5), "left"),
)
CASES += [
    Planted(
        "all_fives_2_unclaimed_10",
        "all_fives",
        TWO,
        (*TWO_PLAYS, (0, (0, 4), "left")),
        0,
        CONTINUE,
        CLAIM(10),
        MISTAKE,
        "0 and 5-5 make 10: continuing without a claim gives it to Muggins",
        principle=INTO_MUGGINS,
    ),
    Planted(
        "fives_and_threes_2_unclaimed_12",
        "fives_and_threes",
        (TWO[0][:3] + ((2, 4), (4, 6)), TWO[1]),
        (*TWO_PLAYS, (0, (2, 4), "left")),
        0,
        CONTINUE,
        CLAIM(12),
        MISTAKE,
        "2 and 5-5 make 12, a count of threes: unclaimed it is a Muggins",
        principle=INTO_MUGGINS,
    ),
    Planted(
        "all_fives_4p_unclaimed_10",
        "all_fives",
        FOUR,
        (*FOUR_PLAYS, (0, (0, 3), "left")),
        0,
        CONTINUE,
        CLAIM(10),
        MISTAKE,
        "0 and 5-5 make 10 for the side: unclaimed, the other side takes it",
        options=(("partnership", True),),
        principle=INTO_MUGGINS,
    ),
    Planted(
        "fives_and_threes_4p_unclaimed_12",
        "fives_and_threes",
        FOUR,
        FOUR_PLAYS[:7],
        2,
        CONTINUE,
        CLAIM(12),
        MISTAKE,
        "2 and 5-5 make 12: unclaimed, the other side calls Muggins",
        options=(("partnership", True),),
        principle=INTO_MUGGINS,
    ),
    Planted(
        "all_fives_3_unclaimed_10",
        "all_fives",
        THREE,
        (*THREE_PLAYS, (0, (0, 4), "left")),
        0,
        CONTINUE,
        CLAIM(10),
        INACCURACY,
        "0 and 5-5 make 10: unclaimed, the next opponent takes it",
        principle=INTO_MUGGINS,
    ),
    Planted(
        "fives_and_threes_3_unclaimed_10",
        "fives_and_threes",
        THREE,
        (*THREE_PLAYS, (0, (0, 4), "left")),
        0,
        CONTINUE,
        CLAIM(10),
        INACCURACY,
        "0 and 5-5 make 10: unclaimed, it goes to the next opponent's Muggins",
        principle=INTO_MUGGINS,
    ),
]


# Stranding the heaviest double (line layouts). Six of the 6s go down in one
# chain, the 0 end opens, and the seat to move holds 6-6 and 0-6 with ends 0
# and 6. 0-6 on the 6 end turns both ends to 0: no 6 can ever show again, so
# 6-6 stays in hand to the end. 0-6 on the 0 end makes both ends 6 and 6-6
# goes next turn.
CHAIN: tuple[tuple[Pair, str], ...] = (
    ((3, 6), "root"),
    ((5, 6), "right"),
    ((2, 5), "right"),
    ((2, 6), "right"),
    ((4, 6), "right"),
    ((1, 4), "right"),
    ((1, 6), "right"),
    ((0, 3), "left"),
)
# The draw games with three or four seats: the left end comes to 0 by 3-4,
# 4-5 and 0-5 instead of 0-3, so more tiles are down and fewer are left in
# the stock and the hands (each sampled deal is solved to the end).
LONG: tuple[tuple[Pair, str], ...] = (
    ((3, 6), "root"),
    ((5, 6), "right"),
    ((3, 4), "left"),
    ((2, 5), "right"),
    ((4, 5), "left"),
    ((2, 6), "right"),
    ((0, 5), "left"),
    ((4, 6), "right"),
    ((1, 4), "right"),
    ((1, 6), "right"),
)
FILLERS: tuple[Pair, ...] = (
    (1, 1), (4, 4), (3, 5), (2, 3), (5, 5), (0, 1), (2, 2), (1, 2),
    (3, 3), (0, 2), (3, 4), (1, 3), (0, 4), (4, 5), (0, 0), (1, 5),
    (0, 5), (2, 4), (3, 6), (5, 6), (2, 5), (2, 6), (4, 6), (1, 4), (1, 6),
    (0, 3),
)  # fmt: skip


# The same on the four arms of a centre double (Cross, Grand Cross, Spider):
# the arms end 6, 0, 2 and 1 with every other 6 down.
ARMS: tuple[tuple[Pair, str], ...] = (
    ((3, 3), "root"),
    ((3, 6), "n"),
    ((3, 5), "e"),
    ((2, 3), "s"),
    ((3, 4), "w"),
    ((5, 6), "e"),
    ((2, 6), "e"),
    ((4, 6), "w"),
    ((1, 6), "w"),
    ((0, 2), "e"),
)


def _laid(
    name: str,
    variant: str,
    seats: int,
    size: int,
    expect: str,
    *,
    chain: tuple[tuple[Pair, str], ...],
    held: tuple[Pair, ...],
    blunder: Action,
    better: Action,
    why: str,
    principle: str,
    fillers: tuple[Pair, ...] = FILLERS,
    **options: Any,
) -> Planted:
    """The ``chain`` laid by the seats in turn from seat 0; the seat after it
    holds ``held``; every hand is filled to ``size`` from ``fillers``."""
    hands: list[list[Pair]] = [[] for _ in range(seats)]
    plays: list[Step] = []
    for i, (tile, end) in enumerate(chain):
        hands[i % seats].append(tile)
        plays.append((i % seats, tile, end))
    seat = len(chain) % seats
    hands[seat] += list(held)
    spare = iter(p for p in fillers if all(p not in h for h in hands))
    for h in hands:
        while len(h) < size:
            h.append(next(spare))
    return Planted(
        name,
        variant,
        tuple(tuple(h) for h in hands),
        tuple(plays),
        seat,
        blunder,
        better,
        expect,
        why,
        options=tuple(options.items()),
        principle=principle,
    )


def _stranded(
    name: str,
    variant: str,
    seats: int,
    size: int,
    expect: str,
    *,
    chain: tuple[tuple[Pair, str], ...] = CHAIN,
    ends: tuple[str, str] = ("right", "left"),
    top: int = 6,
    **options: Any,
) -> Planted:
    """The seat after ``chain`` holds 6-6 and 0-6 and plays 0-6 on the 6 end
    (``ends[0]``) where the 0 end (``ends[1]``) keeps 6-6 alive. ``top`` 5
    swaps the 5s and the 6s of every tile: the same plan strands 5-5."""

    def swap(p: Pair) -> Pair:
        a, b = ({5: 6, 6: 5}.get(x, x) if top == 5 else x for x in p)
        return (min(a, b), max(a, b))

    return _laid(
        name,
        variant,
        seats,
        size,
        expect,
        chain=tuple((swap(tile), end) for tile, end in chain),
        held=((top, top), (0, top)),
        blunder=play((0, top), ends[0]),
        better=play((0, top), ends[1]),
        why=f"0-{top} on the {top} end leaves no {top} showing with every other "
        f"{top} down: {top}-{top} is stranded for the hand; 0-{top} on the 0 end "
        "keeps it playable",
        principle=HEAVY_DOUBLE,
        fillers=tuple(swap(p) for p in FILLERS),
        **options,
    )


CASES += [
    _stranded("block_2_stranded_6_6", "block", 2, 8, MISTAKE),
    _stranded("block_3_stranded_6_6", "block", 3, 6, MISTAKE),
    _stranded("block_4_stranded_6_6", "block", 4, 6, MISTAKE),
    _stranded("block_4p_stranded_6_6", "block", 4, 6, MISTAKE, partnership=True),
    _stranded("draw_2_stranded_6_6", "draw", 2, 7, MISTAKE),
    _stranded("catalan_2_stranded_6_6", "catalan", 2, 7, MISTAKE, tiles_per_seat=7),
    _stranded("all_fives_2_stranded_6_6", "all_fives", 2, 5, MISTAKE),
    _stranded("all_fives_3_stranded_6_6", "all_fives", 3, 5, INACCURACY),
    _stranded("all_fives_4_stranded_6_6", "all_fives", 4, 5, MISTAKE),
    _stranded(
        "all_fives_4p_stranded_6_6", "all_fives", 4, 5, MISTAKE, partnership=True
    ),
    _stranded("fives_and_threes_2_stranded_6_6", "fives_and_threes", 2, 5, MISTAKE),
    _stranded("fives_and_threes_3_stranded_6_6", "fives_and_threes", 3, 5, MISTAKE),
    _stranded(
        "fives_and_threes_4_stranded_6_6", "fives_and_threes", 4, 5, MISTAKE, target=250
    ),
    _stranded(
        "fives_and_threes_4p_stranded_6_6",
        "fives_and_threes",
        4,
        5,
        MISTAKE,
        partnership=True,
    ),
]


def _on_arms(
    name: str, variant: str, seats: int, size: int, expect: str, **options: Any
) -> Planted:
    """``_stranded`` on the four arms of ``ARMS``: 0-6 on "n" (the 6) or on
    "e" (the 0)."""
    return _stranded(
        name, variant, seats, size, expect, chain=ARMS, ends=("n", "e"), **options
    )


CASES += [
    _on_arms("cross_2_stranded_6_6", "cross", 2, 7, MISTAKE),
    _on_arms("cross_3_stranded_6_6", "cross", 3, 5, INACCURACY),
    _on_arms("cross_4_stranded_6_6", "cross", 4, 4, INACCURACY),
    _on_arms("grand_cross_2_stranded_6_6", "grand_cross", 2, 7, MISTAKE, set_max=6),
    _on_arms("grand_cross_3_stranded_6_6", "grand_cross", 3, 5, INACCURACY, set_max=6),
    _on_arms("spider_2_stranded_6_6", "spider", 2, 7, MISTAKE),
    _stranded("fives_3_stranded_6_6_long", "fives", 3, 5, MISTAKE, chain=LONG),
    _stranded("draw_3_stranded_6_6_long", "draw", 3, 5, MISTAKE, chain=LONG),
    _stranded("draw_4_stranded_6_6_long", "draw", 4, 4, MISTAKE, chain=LONG),
    _stranded(
        "draw_4p_stranded_6_6_long", "draw", 4, 4, MISTAKE, chain=LONG, partnership=True
    ),
    _stranded("catalan_3_stranded_6_6_long", "catalan", 3, 5, MISTAKE, chain=LONG),
    _stranded(
        "catalan_4p_stranded_6_6_long",
        "catalan",
        4,
        7,
        MISTAKE,
        chain=LONG,
        tiles_per_seat=7,
        partnership=True,
    ),
]

# Passing up 20: 6-6 opens and stays at the right end (12, both halves), the
# left end comes round to 4. 4-4 there makes 8 + 12 = 20; 1-4 makes 1 + 12 =
# 13, nothing.
TWENTY: tuple[tuple[Pair, str], ...] = (
    ((6, 6), "root"),
    ((3, 6), "left"),
    ((2, 3), "left"),
    ((1, 2), "left"),
    ((0, 1), "left"),
    ((0, 5), "left"),
    ((4, 5), "left"),
)
SPARE: tuple[Pair, ...] = (
    (2, 4), (0, 0), (1, 1), (0, 2), (3, 3), (2, 2), (5, 5), (1, 3),
    (3, 4), (2, 5), (0, 3), (1, 5), (3, 5), (0, 4),
)  # fmt: skip


def _twenty(
    name: str, variant: str, seats: int, size: int, expect: str, **options: Any
) -> Planted:
    return _laid(
        name,
        variant,
        seats,
        size,
        expect,
        chain=TWENTY,
        held=((4, 4), (1, 4)),
        blunder=play((1, 4), "left"),
        better=play((4, 4), "left"),
        why="4-4 on the 4 makes 8 against 6-6's 12, twenty points; 1-4 "
        "sheds the same pips for nothing",
        principle=PASSING_UP,
        fillers=SPARE,
        **options,
    )


CASES += [
    _twenty("all_fives_2_passes_up_20", "all_fives", 2, 5, MISTAKE),
    _twenty("all_fives_4_passes_up_20", "all_fives", 4, 5, MISTAKE),
    _twenty("all_fives_4p_passes_up_20", "all_fives", 4, 5, MISTAKE, partnership=True),
    _twenty("fives_and_threes_2_passes_up_20", "fives_and_threes", 2, 5, INACCURACY),
    _twenty("fives_and_threes_3_passes_up_20", "fives_and_threes", 3, 5, MISTAKE),
    _twenty("fives_2_passes_up_20", "fives", 2, 7, MISTAKE),
]

# The same plans with the 5s and 6s swapped: 5-5 stranded.
CASES += [
    _stranded("block_2_stranded_5_5", "block", 2, 8, MISTAKE, top=5),
    _stranded("block_3_stranded_5_5", "block", 3, 6, MISTAKE, top=5),
    _stranded("draw_2_stranded_5_5", "draw", 2, 7, MISTAKE, top=5),
    _stranded("draw_3_stranded_5_5", "draw", 3, 5, MISTAKE, chain=LONG, top=5),
    _stranded(
        "catalan_2_stranded_5_5", "catalan", 2, 7, MISTAKE, top=5, tiles_per_seat=7
    ),
    _on_arms("cross_2_stranded_5_5", "cross", 2, 7, MISTAKE, top=5),
    _on_arms("spider_2_stranded_5_5", "spider", 2, 7, MISTAKE, top=5),
    _on_arms(
        "grand_cross_2_stranded_5_5",
        "grand_cross",
        2,
        7,
        MISTAKE,
        top=5,
        set_max=6,
    ),
]

# Planted blunders the review does not label, with what it answered:
# * grand_cross_4_stranded_6_6: exact, judged, 0-6 on "e" valued above 0-6 on
#   "n" by 9.8 points (+-3.9), under Grand Cross's inaccuracy threshold (10):
#   with four seats another seat is likely out before 6-6 would be played.
DISPUTED += [
    _on_arms("grand_cross_4_stranded_6_6", "grand_cross", 4, 4, MISTAKE, set_max=6),
]

# Block: letting the opponent domino when a block was available. Seat 1 passed
# on 6 and 5 (a Block hand never grows, so it holds neither) and is down to one
# tile; the ends are 6 and 0. 0-5 on the 0 shows 6 and 5: seat 1 cannot play,
# the hand blocks with seat 0 on 4 pips. 0-1 shows a 1 that seat 1 may go out
# on, taking 0-5 and 1-2.
CASES += [
    Planted(
        "block_2_lets_opponent_domino",
        "block",
        (
            ((6, 6), (5, 6), (2, 6), (4, 5), (1, 1), (1, 2), (0, 5), (0, 1)),
            ((3, 6), (2, 3), (4, 4), (3, 4), (1, 3), (1, 4), (0, 4), (2, 2)),
        ),
        (
            (0, (6, 6), "root"),
            (1, (3, 6), "left"),
            (0, (5, 6), "right"),
            (1, (2, 3), "left"),
            (0, (2, 6), "left"),
            (0, (4, 5), "right"),
            (1, (4, 4), "right"),
            (1, (3, 4), "right"),
            (1, (1, 3), "right"),
            (0, (1, 1), "right"),
            (1, (1, 4), "right"),
            (1, (0, 4), "right"),
        ),
        0,
        play((0, 1), "right"),
        play((0, 5), "right"),
        INACCURACY,
        "with the opponent on one tile and known to hold no 6 or 5, showing "
        "6 and 5 blocks the hand; showing a 1 lets it go out",
        principle=LET_DOMINO,
    ),
]

# Opening a count a partner cannot cover (All Fives and Fives and Threes, four
# seats in partnership): of two plays that score nothing, one leaves an
# end-sum the next opponent counts on with a tile still out, and the partner
# who plays after it has nothing to score back; the other leaves a sum no tile
# out can count. Letting an opponent domino (Block, Draw with the stock out):
# the next seat is down to one tile, and one play shows a number it goes out
# on where the other blocks it. Passing up points in Fives with four seats
# (its scores count at once: nothing to claim). Seeded deals played to a late
# decision; every play is stated and the stock given in its order.
CASES += [
    Planted(
        "all_fives_4p_opens_count_15",
        "all_fives",
        (
            (
                (3, 4),
                (4, 5),
                (5, 5),
                (6, 6),
                (0, 6),
            ),
            (
                (5, 6),
                (1, 4),
                (1, 6),
                (0, 4),
                (4, 6),
            ),
            (
                (2, 5),
                (1, 2),
                (0, 0),
                (0, 1),
                (1, 3),
            ),
            (
                (0, 3),
                (2, 4),
                (3, 6),
                (1, 1),
                (2, 6),
            ),
        ),
        (
            (0, (5, 5), "root"),
            (1, (5, 6), "left"),
            (2, (2, 5), "right"),
            (3, (2, 6), "right"),
            (0, (0, 6), "right"),
            (1, (4, 6), "left"),
            (2, (0, 0), "right"),
            (3, (2, 4), "left"),
            (1, (0, 4), "right"),
            (2, (1, 2), "left"),
            (3, (1, 1), "left"),
            (0, (4, 5), "right"),
            (1, (1, 4), "left"),
            (0, (3, 4), "left"),
            (2, (1, 3), "left"),
            (1, (3, 5), "right"),
            (2, (0, 1), "left"),
            (3, (0, 3), "left"),
            (0, (3, 3), "left"),
        ),
        3,
        play((3, 6), "left"),
        play((3, 6), "right"),
        INACCURACY,
        "opening a count: 3-6 off the 3-3 leaves 6 and 3 (9), where 6-6 makes "
        "15 for the next opponent and the partner has nothing to cover it; "
        "3-6 on the 3 leaves 3-3 and 6 (12), where 6-6 makes 18, nothing",
        stock=(
            (3, 3),
            (4, 4),
            (2, 2),
            (3, 5),
            (0, 5),
            (1, 5),
            (0, 2),
            (2, 3),
        ),
        options=(("partnership", True),),
        principle=OPEN_COUNT,
    ),
    Planted(
        "all_fives_4p_opens_count_10",
        "all_fives",
        (
            (
                (4, 4),
                (1, 5),
                (2, 5),
                (0, 6),
                (5, 5),
            ),
            (
                (0, 2),
                (1, 6),
                (3, 4),
                (0, 5),
                (0, 1),
            ),
            (
                (2, 4),
                (0, 3),
                (0, 4),
                (2, 3),
                (5, 6),
            ),
            (
                (3, 6),
                (1, 1),
                (0, 0),
                (2, 6),
                (1, 2),
            ),
        ),
        (
            (0, (2, 5), "root"),
            (1, (0, 5), "right"),
            (2, (2, 3), "left"),
            (3, (3, 6), "left"),
            (0, (0, 6), "left"),
            (1, (0, 1), "left"),
            (2, (0, 3), "right"),
            (3, (1, 2), "left"),
            (1, (0, 2), "left"),
            (2, (0, 4), "left"),
            (0, (4, 4), "left"),
        ),
        1,
        play((3, 4), "right"),
        play((3, 4), "left"),
        INACCURACY,
        "opening a count: 3-4 on the 3 leaves 4-4 and 4 (12), where 2-4 on "
        "the 4 or 4-6 off the double makes 10 for the next opponent; 3-4 on "
        "the 4-4 leaves 3 and 3 (6), which no tile out can count",
        stock=(
            (1, 4),
            (2, 2),
            (3, 5),
            (3, 3),
            (4, 5),
            (4, 6),
            (6, 6),
            (1, 3),
        ),
        options=(("partnership", True),),
        principle=OPEN_COUNT,
    ),
    Planted(
        "fives_and_threes_4p_opens_count_18",
        "fives_and_threes",
        (
            (
                (2, 2),
                (1, 3),
                (1, 1),
                (3, 3),
                (3, 5),
            ),
            (
                (4, 4),
                (1, 2),
                (0, 2),
                (0, 0),
                (2, 3),
            ),
            (
                (1, 4),
                (3, 6),
                (0, 6),
                (2, 6),
                (4, 6),
            ),
            (
                (0, 4),
                (4, 5),
                (1, 5),
                (1, 6),
                (5, 5),
            ),
        ),
        (
            (0, (1, 3), "root"),
            (1, (2, 3), "right"),
            (2, (2, 6), "right"),
            (3, (1, 6), "left"),
            (2, (3, 6), "right"),
            (0, (3, 5), "right"),
            (2, (4, 6), "left"),
            (3, (1, 5), "right"),
            (0, (2, 4), "left"),
            (1, (0, 2), "left"),
            (2, (0, 6), "left"),
            (0, (1, 1), "right"),
            (1, (0, 1), "right"),
            (3, (0, 4), "right"),
            (1, (4, 4), "right"),
        ),
        2,
        play((5, 6), "left"),
        play((1, 4), "right"),
        INACCURACY,
        "opening a count: 5-6 on the 6 leaves 5 and 4-4 (13), where 4-5 makes "
        "12 and 5-5 18 for the next opponent; 1-4 off the double leaves 6 and "
        "1 (7), which no tile out can count",
        stock=(
            (2, 4),
            (0, 1),
            (0, 3),
            (0, 5),
            (3, 4),
            (5, 6),
            (6, 6),
            (2, 5),
        ),
        options=(("partnership", True),),
        principle=OPEN_COUNT,
    ),
    Planted(
        "fives_and_threes_4p_opens_count_10",
        "fives_and_threes",
        (
            (
                (0, 5),
                (2, 4),
                (4, 4),
                (4, 6),
                (3, 4),
            ),
            (
                (0, 1),
                (1, 2),
                (0, 2),
                (1, 6),
                (2, 6),
            ),
            (
                (3, 5),
                (5, 6),
                (5, 5),
                (1, 4),
                (2, 3),
            ),
            (
                (1, 1),
                (6, 6),
                (0, 0),
                (1, 3),
                (0, 4),
            ),
        ),
        (
            (0, (4, 4), "root"),
            (2, (1, 4), "left"),
            (3, (1, 3), "left"),
            (0, (3, 4), "left"),
            (3, (0, 4), "left"),
            (0, (0, 5), "left"),
            (1, (1, 5), "left"),
            (3, (1, 1), "left"),
            (0, (2, 4), "right"),
            (1, (1, 6), "left"),
            (2, (5, 6), "left"),
            (1, (2, 2), "right"),
        ),
        2,
        play((3, 5), "left"),
        play((2, 3), "right"),
        MISTAKE,
        "opening a count: 3-5 on the 5 leaves 3 and 2-2 (7), where 3-3 or 3-6 "
        "makes 10 for the next opponent; 2-3 off the double leaves 5 and 3 "
        "(8), which no tile out can count",
        stock=(
            (2, 2),
            (1, 5),
            (0, 3),
            (2, 5),
            (3, 3),
            (0, 6),
            (3, 6),
            (4, 5),
        ),
        options=(("partnership", True),),
        principle=OPEN_COUNT,
    ),
    Planted(
        "block_3_lets_opponent_domino_on_1",
        "block",
        (
            (
                (1, 3),
                (1, 5),
                (3, 6),
                (5, 6),
                (0, 0),
                (4, 4),
            ),
            (
                (2, 6),
                (2, 2),
                (2, 5),
                (3, 5),
                (4, 6),
                (0, 4),
            ),
            (
                (4, 5),
                (3, 4),
                (1, 2),
                (1, 1),
                (0, 5),
                (0, 3),
            ),
        ),
        (
            (0, (0, 0), "root"),
            (1, (0, 4), "right"),
            (2, (0, 3), "left"),
            (0, (3, 6), "left"),
            (1, (4, 6), "right"),
            (0, (5, 6), "left"),
            (1, (2, 6), "right"),
            (2, (0, 5), "left"),
            (1, (2, 5), "right"),
            (2, (4, 5), "right"),
            (0, (4, 4), "right"),
            (2, (3, 4), "right"),
            (0, (1, 3), "right"),
        ),
        2,
        play((1, 1), "right"),
        play((1, 2), "right"),
        BLUNDER,
        "letting an opponent domino: the next seat is down to one tile; 1-1 "
        "keeps a 1 showing and 1-5 goes out on it; 1-2 shows 0 and 2, where "
        "it cannot play",
        stock=(
            (0, 2),
            (2, 3),
            (3, 3),
            (1, 4),
            (6, 6),
            (0, 6),
            (0, 1),
            (5, 5),
            (1, 6),
            (2, 4),
        ),
        principle=LET_DOMINO,
    ),
    Planted(
        "block_3_lets_opponent_domino_on_5",
        "block",
        (
            (
                (2, 6),
                (1, 5),
                (5, 6),
                (0, 0),
                (1, 2),
                (2, 4),
            ),
            (
                (2, 2),
                (0, 1),
                (1, 3),
                (3, 5),
                (0, 2),
                (6, 6),
            ),
            (
                (4, 6),
                (4, 4),
                (3, 4),
                (1, 4),
                (4, 5),
                (0, 4),
            ),
        ),
        (
            (0, (1, 5), "root"),
            (1, (3, 5), "right"),
            (2, (1, 4), "left"),
            (0, (2, 4), "left"),
            (1, (2, 2), "left"),
            (2, (3, 4), "right"),
            (0, (2, 6), "left"),
            (1, (6, 6), "left"),
            (2, (0, 4), "right"),
            (0, (0, 0), "right"),
            (1, (0, 1), "right"),
            (2, (4, 6), "left"),
            (0, (1, 2), "right"),
            (1, (0, 2), "right"),
        ),
        2,
        play((4, 5), "left"),
        play((4, 4), "left"),
        MISTAKE,
        "letting an opponent domino: the next seat is down to one tile; 4-5 "
        "shows a 5 and 5-6 goes out on it; 4-4 keeps 4 and 0 showing, where "
        "it cannot play",
        stock=(
            (2, 5),
            (3, 6),
            (0, 6),
            (1, 1),
            (0, 3),
            (3, 3),
            (2, 3),
            (1, 6),
            (0, 5),
            (5, 5),
        ),
        principle=LET_DOMINO,
    ),
    Planted(
        "draw_2_lets_opponent_domino_on_6",
        "draw",
        (
            (
                (1, 2),
                (0, 4),
                (5, 5),
                (3, 6),
                (3, 5),
                (4, 4),
                (2, 4),
            ),
            (
                (0, 6),
                (4, 6),
                (1, 3),
                (1, 1),
                (0, 0),
                (3, 3),
                (0, 1),
            ),
        ),
        (
            (0, (3, 5), "root"),
            (1, (1, 3), "left"),
            (0, (5, 5), "right"),
            (1, (0, 1), "left"),
            (0, (0, 4), "left"),
            (1, (4, 6), "left"),
            (0, (3, 6), "left"),
            (1, (3, 3), "left"),
            (0, (3, 4), "left"),
            (1, (0, 5), "right"),
            (0, (4, 4), "left"),
            (1, (0, 3), "right"),
            (0, (2, 4), "left"),
            (1, (2, 6), "left"),
            (0, (1, 6), "left"),
            (1, (1, 1), "left"),
            (0, (1, 2), "left"),
            (1, (0, 2), "left"),
            (0, (2, 3), "right"),
            (1, (0, 0), "left"),
            (0, (2, 2), "right"),
            (1, (0, 6), "left"),
        ),
        0,
        play((2, 5), "right"),
        play((5, 6), "left"),
        MISTAKE,
        "letting an opponent domino: the stock is out and the opponent's last "
        "tile can only be 6-6; 2-5 on the 2-2 leaves the 6 for it to go out "
        "on; 5-6 on the 6 shows 5 and 2-2 and blocks it",
        stock=(
            (3, 4),
            (0, 3),
            (0, 5),
            (6, 6),
            (2, 6),
            (1, 4),
            (1, 6),
            (0, 2),
            (5, 6),
            (2, 5),
            (2, 2),
            (4, 5),
            (1, 5),
            (2, 3),
        ),
        principle=LET_DOMINO,
    ),
    Planted(
        "draw_2_lets_opponent_domino_on_4",
        "draw",
        (
            (
                (0, 5),
                (2, 3),
                (2, 5),
                (2, 6),
                (4, 5),
                (3, 5),
                (0, 1),
            ),
            (
                (6, 6),
                (3, 6),
                (5, 6),
                (0, 6),
                (3, 4),
                (3, 3),
                (1, 1),
            ),
        ),
        (
            (0, (0, 1), "root"),
            (1, (0, 6), "left"),
            (0, (2, 6), "left"),
            (1, (1, 1), "right"),
            (0, (2, 3), "left"),
            (1, (3, 3), "left"),
            (0, (3, 5), "left"),
            (1, (5, 6), "left"),
            (0, (1, 4), "right"),
            (1, (3, 4), "right"),
            (0, (1, 3), "right"),
            (1, (3, 6), "left"),
            (0, (1, 2), "right"),
            (1, (2, 2), "right"),
            (0, (2, 5), "right"),
            (1, (5, 5), "right"),
            (0, (0, 5), "right"),
            (1, (0, 0), "right"),
            (0, (0, 2), "right"),
            (1, (0, 3), "left"),
            (0, (2, 4), "right"),
        ),
        1,
        play((0, 4), "left"),
        play((4, 6), "right"),
        MISTAKE,
        "letting an opponent domino: the stock is out and the opponent's last "
        "tile can only be 4-5; 0-4 on the 0 shows two 4s to go out on; 4-6 on "
        "the 4 shows 0 and 6 and blocks it",
        stock=(
            (1, 4),
            (0, 2),
            (1, 3),
            (1, 2),
            (4, 4),
            (4, 6),
            (1, 6),
            (1, 5),
            (0, 0),
            (5, 5),
            (2, 2),
            (0, 4),
            (0, 3),
            (2, 4),
        ),
        principle=LET_DOMINO,
    ),
    Planted(
        "fives_4_passes_up_20",
        "fives",
        (
            (
                (1, 2),
                (3, 5),
                (4, 4),
                (0, 6),
                (2, 3),
            ),
            (
                (0, 1),
                (1, 4),
                (2, 2),
                (2, 6),
                (0, 5),
            ),
            (
                (4, 5),
                (1, 6),
                (1, 3),
                (0, 3),
                (3, 4),
            ),
            (
                (5, 6),
                (5, 5),
                (0, 2),
                (2, 4),
                (3, 3),
            ),
        ),
        (
            (0, (3, 5), "root"),
            (1, (0, 5), "right"),
            (2, (3, 4), "left"),
            (3, (0, 2), "right"),
            (0, (4, 4), "left"),
            (1, (2, 2), "right"),
            (2, (4, 5), "left"),
            (3, (2, 4), "4-4:l"),
            (0, (2, 3), "4-4:l"),
            (1, (1, 4), "4-4:r"),
            (2, (1, 3), "4-4:l"),
            (3, (5, 5), "left"),
            (0, (1, 2), "4-4:r"),
            (1, (2, 6), "right"),
            (2, (1, 6), "4-4:l"),
        ),
        3,
        play((5, 6), "right"),
        play((5, 6), "left"),
        MISTAKE,
        "passing up points: 5-6 off the 5-5 makes 6 + 6 + 6 + 2 = 20, scored "
        "at once; on the 6 it makes 10 + 5 + 6 + 2 = 23, nothing",
        stock=(
            (1, 5),
            (1, 1),
            (6, 6),
            (0, 4),
            (2, 5),
            (0, 0),
            (3, 6),
            (4, 6),
        ),
        principle=PASSING_UP,
    ),
]

# Spider: a double just laid may be closed (RULES.md 2.3), a dead end for the
# rest of the hand. Seat 0's last tile is 4-5 and the 4-4 it has just laid on
# "e" shows the only 4: closing it shuts the one end that tile fits.
CASES += [
    Planted(
        "spider_2_closes_own_last_end",
        "spider",
        (
            ((0, 2), (4, 5), (1, 2), (4, 4), (1, 4), (2, 3), (0, 4)),
            ((1, 1), (0, 1), (2, 6), (4, 6), (2, 5), (3, 6), (0, 0)),
        ),
        (
            (0, (1, 4), "root"),
            (1, (1, 1), "w"),
            (0, (1, 2), "n"),
            (1, (0, 1), "e"),
            (0, (0, 4), "e"),
            (1, (4, 6), "e"),
            (0, (0, 2), "n"),
            (1, (3, 6), "e"),
            (0, (2, 3), "e"),
            (1, (0, 0), "n"),
            (0, (2, 4), "e"),
            (1, (1, 3), "s"),
            (0, (4, 4), "e"),
        ),
        0,
        Action.close(("e",)),
        CONTINUE,
        INACCURACY,
        "closing the end one's own last tile needs: 4-5 fits only the 4-4 "
        'just laid on "e"; closed, that end is dead and 4-5 waits for a 4 or '
        "a 5 to show elsewhere; left open, it goes out there next turn unless "
        "the opponent covers it first",
        stock=(
            (2, 4),
            (1, 3),
            (3, 5),
            (6, 6),
            (1, 5),
            (0, 6),
            (0, 3),
            (0, 5),
            (3, 3),
            (5, 5),
            (5, 6),
            (1, 6),
            (3, 4),
            (2, 2),
        ),  # fmt: skip
        principle=CLOSE_OWN_END,
    ),
]

# Passing up points with a seat count not used for it above: All Fives with
# three seats, Fives and Threes with four in partnership.
CASES += [
    Planted(
        "all_fives_3_passes_up_10",
        "all_fives",
        (
            (
                (4, 5),
                (0, 2),
                (3, 5),
                (0, 4),
                (6, 6),
            ),
            (
                (0, 1),
                (4, 4),
                (3, 4),
                (2, 4),
                (5, 6),
            ),
            (
                (1, 5),
                (0, 5),
                (0, 0),
                (2, 5),
                (1, 4),
            ),
        ),
        (
            (0, (0, 4), "root"),
            (1, (3, 4), "right"),
            (2, (0, 5), "left"),
            (0, (3, 5), "left"),
            (1, (0, 3), "right"),
            (2, (0, 0), "right"),
            (0, (0, 2), "right"),
            (1, (2, 4), "right"),
            (2, (1, 4), "right"),
            (0, (1, 6), "right"),
            (1, (5, 6), "right"),
            (2, (2, 5), "right"),
            (0, (2, 6), "right"),
            (1, (3, 6), "left"),
            (0, (6, 6), "right"),
        ),
        0,
        play((4, 6), "left"),
        play((4, 6), "right"),
        INACCURACY,
        "passing up points: 4-6 on the plain 6 makes 4 + 12 = 16, nothing; "
        "on the 6-6 it makes 6 + 4 = 10",
        stock=(
            (0, 3),
            (1, 1),
            (1, 6),
            (2, 6),
            (3, 6),
            (1, 2),
            (1, 3),
            (5, 5),
            (2, 2),
            (4, 6),
            (0, 6),
            (3, 3),
            (2, 3),
        ),
        principle=PASSING_UP,
    ),
    Planted(
        "fives_and_threes_4p_passes_up_12",
        "fives_and_threes",
        (
            (
                (0, 5),
                (2, 6),
                (5, 5),
                (4, 4),
                (4, 6),
            ),
            (
                (6, 6),
                (0, 3),
                (0, 6),
                (1, 6),
                (2, 2),
            ),
            (
                (1, 2),
                (0, 1),
                (4, 5),
                (2, 3),
                (2, 5),
            ),
            (
                (0, 2),
                (0, 4),
                (3, 3),
                (3, 4),
                (1, 1),
            ),
        ),
        (
            (0, (4, 6), "root"),
            (1, (6, 6), "right"),
            (2, (4, 5), "left"),
            (0, (5, 5), "left"),
            (1, (0, 6), "right"),
            (2, (0, 1), "right"),
            (3, (1, 1), "right"),
            (0, (0, 5), "left"),
            (1, (1, 6), "right"),
            (3, (0, 2), "left"),
        ),
        0,
        play((2, 6), "right"),
        play((2, 6), "left"),
        MISTAKE,
        "passing up points: 2-6 on the 2 makes 6 + 6 = 12, a count of threes; "
        "on the 6 it makes 2 + 2 = 4, nothing",
        stock=(
            (5, 6),
            (2, 4),
            (3, 6),
            (1, 3),
            (0, 0),
            (3, 5),
            (1, 4),
            (1, 5),
        ),
        options=(("partnership", True),),
        principle=PASSING_UP,
    ),
]
