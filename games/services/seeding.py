"""The client seeds of a fair table and its first deal (RULES.md §1.1).

A fair table that starts is ``playing`` without a state: it waits for a client seed
from every person seated, at most ``GAMES_FAIR_SEED_SECONDS``. Its timed job is
``deal`` (``Table.Timer.DEAL``), due at once when nobody seated is a person; the
job, or the last seed to arrive, deals hand 1 with the seeds that came (the empty
string for the others). The seeds are then fixed for the match.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from games import engine
from games.engine.fair import SEED_MAX, seed_valid
from games.errors import TableError
from games.fairness import fair_deal_of, table_seeding
from games.models import Seat, Table
from games.rows import table_seats
from games.services.transitions import change, table_lock, transition
from games.timers import NextTimer


def _people(seats: list[Seat]) -> list[Seat]:
    """The seats whose seeds the first deal waits for."""
    return [s for s in seats if not s.is_bot and not s.forfeited]


def seeding_timer(seats: list[Seat]) -> NextTimer:
    """The ``deal`` job of a fair table that has just started."""
    delay = settings.GAMES_FAIR_SEED_SECONDS if _people(seats) else 0.0
    return NextTimer(Table.Timer.DEAL, None, delay)


def seeding_open(table: Table, seats: list[Seat], *, fields: list[str]) -> None:
    """Start a fair table (its ``status`` and ``started_at`` already set): a new
    ``seq`` without a deal, waiting for the seeds. Hold the row lock."""
    change(
        table,
        seats,
        None,
        position=None,
        actor="server",
        timer=seeding_timer(seats),
        fields=fields,
    )


def seeded_deal(table: Table, seats: list[Seat]) -> None:
    """Deal hand 1 of a seeding table with the seeds it has. Hold the row lock."""
    assert table.fair is not None
    deal = fair_deal_of(table)
    table.fair = {**table.fair, "seeds": list(deal.seeds)}
    state = engine.new_match(
        engine.Options.from_dict(table.options), table.seed, fair=deal
    )
    transition(
        table,
        seats,
        state,
        position=None,
        actor="server",
        action=None,
        fields=["fair"],
    )


@transaction.atomic
def table_seed(
    *, table_id: int, user: User, seed: Any, claimed_seat: int | None = None
) -> None:
    """Take a seated person's client seed before the first deal (the table
    socket's ``seed``); a seed sent again before the deal replaces the first.

    The last person's seed deals at once. Refusals (``TableError``, nothing
    changed): ``not_seated``, ``not_your_seat``, ``bad_seed``, ``no_fair_deal`` (a
    table from before fair deals), ``not_started`` and ``seeds_fixed`` (the deal is
    done)."""
    table = table_lock(table_id)
    seats = table_seats(table)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated", gettext("You have no seat at this table."))
    if claimed_seat is not None and claimed_seat != seat.position:
        raise TableError(
            "not_your_seat", gettext("You can send a seed for your own seat only.")
        )
    if not isinstance(seed, str) or not seed_valid(seed):
        raise TableError(
            "bad_seed",
            gettext(
                "A client seed is 1 to %(max)d printable ASCII characters "
                "(letters, digits, punctuation, spaces)."
            )
            % {"max": SEED_MAX},
        )
    if table.fair is None:
        raise TableError(
            "no_fair_deal",
            gettext("This table was dealt before fair deals: it takes no seeds."),
        )
    if table.status == Table.Status.WAITING:
        raise TableError(
            "not_started",
            gettext("Seeds are sent when the game starts, before the first deal."),
        )
    if not table_seeding(table):
        raise TableError(
            "seeds_fixed",
            gettext("The first hand is dealt: the seeds are fixed for this match."),
        )
    seeds = list(table.fair["seeds"])
    seeds[seat.position] = seed
    table.fair = {**table.fair, "seeds": seeds}
    if all(seeds[s.position] is not None for s in _people(seats)):
        seeded_deal(table, seats)
    else:
        change(table, seats, None, position=seat.position, fields=["fair"])
