"""Seat one wave group at a new online table through the ``games`` services.

One ``table_seated_create`` per table: the table, dealt, with all its seats.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from games.models import Table
from games.services import SeatTaker, table_seated_create
from matchmaking.pools import Pool

SIMULATED_LEVELS = ("medium", "hard")
_FIRST = (
    "Alba", "Bruno", "Carmen", "Dario", "Elena", "Fabio", "Gala", "Hugo", "Iris",
    "Jonas", "Kira", "Lucas", "Mara", "Nico", "Olga", "Pablo", "Rosa", "Sami",
    "Tere", "Ugo", "Vera", "Yago", "Zoe",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Member:
    """A person to seat and the rating they queued with."""

    user_id: int
    rating: float


def simulated_name() -> str:
    """A generated name for a simulated player (shown with a computer label)."""
    return f"{secrets.choice(_FIRST)}{secrets.randbelow(90) + 10}"


def _positions(pool: Pool, members: Sequence[Member]) -> list[Member | None]:
    """Who sits where; ``None`` is a simulated seat.

    Partnerships pair the strongest with the weakest (seats 0+2 against 1+3), so the
    two sides are as even as the four ratings allow.
    """
    people = sorted(members, key=lambda m: m.rating)
    ordered: list[Member | None] = [*people, *[None] * (pool.seats - len(people))]
    if pool.partnership and pool.seats == 4 and len(members) == 4:
        low, second, third, high = ordered
        return [low, second, high, third]
    return ordered


def table_seat_group(
    *,
    pool: Pool,
    members: Sequence[Member],
    users: Mapping[int, AbstractBaseUser] | None = None,
) -> Table:
    """A started online table of ``members``, empty seats given to simulated players.

    ``users`` may hold the members' users already read (a wave reads them once for
    all its tables). Call inside a transaction; the table's first frames go out
    after its commit.
    """
    if users is None:
        users = get_user_model().objects.in_bulk([m.user_id for m in members])
    takers = [
        SeatTaker(
            bot_level=secrets.choice(SIMULATED_LEVELS),
            simulated=True,
            name=simulated_name(),
        )
        if member is None
        else SeatTaker(user=users[member.user_id])
        for member in _positions(pool, members)
    ]
    return table_seated_create(
        mode=Table.Mode.ONLINE,
        variant=pool.variant,
        options=pool.options,
        seats=takers,
        clock_seconds=settings.MATCHMAKING_CLOCK_SECONDS,
        hand_pause_seconds=settings.MATCHMAKING_HAND_PAUSE_SECONDS,
        bot_speed=settings.MATCHMAKING_BOT_SPEED,
    )
