"""Seat a wave's groups at new online tables through the ``games`` services.

The tables of one seating batch of a wave are written together by
``tables_seated_create``: dealt, with all their seats.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from games.models import Table
from games.services import SeatTaker, TablePlan, tables_seated_create
from matchmaking.pools.config import DEFAULT_SPEED, Pool, Speed, speed_get

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


def groups_seat(
    *,
    pool: Pool,
    groups: Sequence[Sequence[Member]],
    users: Mapping[int, User] | None = None,
    speed: Speed | None = None,
    mode: str = Table.Mode.ONLINE,
) -> list[Table]:
    """A started table per group, empty seats given to simulated players.

    ``speed`` sets the turn clock (the default speed when None); ``mode`` is online
    (rated) or friend (an unrated open table). All the tables are written together
    (``tables_seated_create``). ``users`` may hold the members' users already read
    (a wave's batch reads them once for all its tables). Call inside a transaction;
    the tables' first frames go out after its commit.
    """
    clock = speed or _default_speed()
    if users is None:
        users = get_user_model().objects.in_bulk(
            [m.user_id for members in groups for m in members]
        )
    plans = [
        TablePlan(
            mode=mode,
            variant=pool.variant,
            options=pool.options,
            seats=[_taker(member, users) for member in _positions(pool, members)],
            clock_seconds=clock.clock_seconds,
            bank_seconds=clock.bank_seconds or None,
            hand_pause_seconds=settings.MATCHMAKING_HAND_PAUSE_SECONDS,
            bot_speed=settings.MATCHMAKING_BOT_SPEED,
        )
        for members in groups
    ]
    return tables_seated_create(plans=plans)


def _default_speed() -> Speed:
    speed = speed_get(DEFAULT_SPEED)
    if speed is None:  # settings without the default speed: today's clock
        return Speed(
            key=DEFAULT_SPEED,
            clock_seconds=int(settings.MATCHMAKING_CLOCK_SECONDS),
            bank_seconds=0,
        )
    return speed


def _taker(member: Member | None, users: Mapping[int, User]) -> SeatTaker:
    """The member's own seat, or a simulated player of a random level and name."""
    if member is None:
        return SeatTaker(
            bot_level=secrets.choice(SIMULATED_LEVELS),
            simulated=True,
            name=simulated_name(),
        )
    return SeatTaker(user=users[member.user_id])
