"""Places at the end of a match, from the engine's scores and winners.

Places are dense ranks (1 = best, equal results share a place): a seat that forfeited
by leaving the table finishes below every other (RULES.md §4, "it finishes last");
then the engine's winners; then by score (highest first; in Spider, whose scores are
penalties, lowest first). Partners share their side's place.
"""

from __future__ import annotations

from collections.abc import Sequence

from games import engine
from games.models import Seat
from games.signals import SeatResult


def seat_results(*, state: engine.State, seats: Sequence[Seat]) -> list[SeatResult]:
    opts = state.options
    penalties = opts.variant == "spider"
    scores = list(state.scores)

    def side(position: int) -> int:
        return position % 2 if opts.partnership else position

    winners = {side(p) for p in state.winners}

    def key(seat: Seat) -> tuple[bool, bool, int]:
        """Smaller is better: not forfeited, on a winning side, then by score."""
        score = scores[side(seat.position)]
        return (
            seat.forfeited,
            side(seat.position) not in winners,
            score if penalties else -score,
        )

    ranks = sorted({key(s) for s in seats})
    place_of = {k: i + 1 for i, k in enumerate(ranks)}
    return [
        SeatResult(
            position=seat.position,
            user_id=seat.user_id,
            bot_level=seat.bot_level,
            simulated=seat.simulated,
            team=seat.team,
            place=place_of[key(seat)],
            score=scores[side(seat.position)],
            forfeited=seat.forfeited,
        )
        for seat in seats
    ]
