"""Earning needs playing (RULES.md §5): which seats' owners earn nothing, and why.

Coins, XP and league points are minted only for a seat whose owner made more than
half of that seat's own decisions in the match; the others were made by the
stand-in (after the turn clock ran out, or while the seat was away). A friend room
pays only if at least two people sat at its start. Decided once, when the match
ends, from the move log; a pot is the players' own money and ignores this.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.db.models import Count

from games.models import Seat, Table, TableEvent

# Why a seat's owner earns nothing (``Seat.unpaid``); "" earns.
STANDIN = "standin"
ALONE = "alone"
# A bot account (``Seat.program``) never earns, and is no person for a friend room:
# nobody can mint coins by playing their own program.
PROGRAM = "bot"


def decisions_by_seat(table_id: int) -> tuple[Counter[int], Counter[int]]:
    """Every seat's decisions in the match, and those its owner made, by position.

    One statement over the move log: each entry with an action is one decision of
    its seat, made by its owner when the actor is ``player``.
    """
    rows = (
        TableEvent.objects.filter(
            table_id=table_id, action__isnull=False, seat__isnull=False
        )
        .values_list("seat", "actor")
        .annotate(n=Count("id"))
        .order_by()
    )
    total: Counter[int] = Counter()
    own: Counter[int] = Counter()
    for seat, actor, n in rows:
        total[seat] += n
        if actor == "player":
            own[seat] += n
    return total, own


def unpaid_reasons(*, table: Table, seats: Sequence[Seat]) -> dict[int, str]:
    """``{position: reason}`` for each human seat of ``table`` ("" earns).

    A seat with no decision at all was never played for by anyone, so it earns.
    """
    programs = {s.position: PROGRAM for s in seats if s.program}
    humans = [s for s in seats if s.user_id is not None and not s.program]
    if not humans:
        return programs
    if table.mode == Table.Mode.FRIEND and len(humans) < 2:
        return {**programs, **{s.position: ALONE for s in humans}}
    total, own = decisions_by_seat(table.pk)
    return {
        **programs,
        **{
            s.position: (
                ""
                if not total[s.position] or 2 * own[s.position] > total[s.position]
                else STANDIN
            )
            for s in humans
        },
    }
