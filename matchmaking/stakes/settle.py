"""Settle a finished stake table: the whole pot to the winners, rewards by position.

RULES.md §5-§6. Runs under the ``StakeTable`` row's lock (the same lock cancelling
takes first), so a table is settled or cancelled, never both, and never twice. A
table whose result cannot be trusted (its state does not load or does not replay
from its log) is refunded instead: never settled on a guess.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction

from economy.services import Placing, pot_settle, table_rewards_pay
from games.models import Seat, Table
from games.replay import table_verify
from matchmaking.stakes.models import StakeTable
from matchmaking.stakes.reports import stake_reports_record
from matchmaking.stakes.services import stake_cancel, stake_close

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """Who receives the pot and the rewards' placings of one finished table."""

    winners: list[int]  # user ids, the one who sat first first (remainder rule)
    placings: list[Placing]


def stake_outcome(*, seats: list[Seat], partnership: bool) -> Outcome:
    """Winners and placings from the seats' final places, forfeits excluded.

    The winners are the best-placed seats that did not forfeit: a winning side with
    a forfeited member is paid through its remaining members, and a forfeited solo
    seat finishes last (its place says so already). Forfeited seats, and seats
    their owner did not play (``unpaid``: the pot still follows the result), are
    placed as players who earn no rewards (``user_id=None``).
    """
    staying = [s for s in seats if not s.forfeited and s.user_id is not None]
    if not staying:
        return Outcome(winners=[], placings=[])
    best = min(s.place or 0 for s in staying)
    top = sorted((s for s in staying if s.place == best), key=lambda s: s.pk)
    winning_team = top[0].team
    placings = []
    for seat in seats:
        if partnership:
            position = 1 if seat.team == winning_team else 2
        else:
            position = seat.place or len(seats)
        placings.append(
            Placing(
                user_id=None if seat.forfeited or seat.unpaid else seat.user_id,
                position=position,
                seat=seat.position,
                team=seat.team,
            )
        )
    return Outcome(winners=[s.user_id for s in top if s.user_id], placings=placings)


def _trusted(table: Table) -> bool:
    """Whether the table's stored state loads and replays from its log."""
    try:
        table_verify(table=table)
    except Exception:
        logger.exception("stake table %s: its result cannot be verified", table.pk)
        return False
    return True


@transaction.atomic
def stake_settle(*, table_id: int) -> str:
    """Settle the table once; return its stake state afterwards.

    ``settled`` (now or earlier), ``cancelled`` (earlier, or now because the result
    cannot be verified or nobody who stayed can win), or ``playing``/``open`` when
    its match has not finished (nothing done).
    """
    row = StakeTable.objects.select_for_update().filter(pk=table_id).first()
    if row is None:
        return ""
    if row.state in (StakeTable.State.SETTLED, StakeTable.State.CANCELLED):
        return str(row.state)
    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.FINISHED:
        return str(row.state)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    outcome = stake_outcome(
        seats=seats, partnership=bool(table.options.get("partnership"))
    )
    if not _trusted(table) or not outcome.winners:
        text = "" if outcome.winners else "every player forfeited"
        stake_cancel(table_id=table_id, reason=StakeTable.Reason.FAULT, text=text)
        return "cancelled"
    ref = str(table_id)
    pot_settle(table_ref=ref, winner_user_ids=outcome.winners)
    table_rewards_pay(table_ref=ref, mode="stake", placings=outcome.placings)
    stake_reports_record(row=row, receivers=outcome.winners)
    stake_close(row, state=StakeTable.State.SETTLED)
    return "settled"
