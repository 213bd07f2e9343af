"""The API's writes: practice tables and challenges (over the games and rooms
services, the same calls the site's pages make)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from api.errors import ApiError
from games import engine
from games.models import Seat, Table
from games.services import table_practice_create
from games.speeds import BOT_SPEEDS
from matchmaking.rooms.models import RoomInvitation
from matchmaking.rooms.services import (
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    room_create,
    room_leave,
    room_start,
)

LEVELS = tuple(Seat.BotLevel.values)


def _options(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    variant = body.get("variant", "draw")
    if not isinstance(variant, str) or variant not in engine.VARIANTS:
        raise ApiError(
            400, "bad_variant", gettext("Choose one of the site's variants.")
        )
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError(
            400, "bad_options", gettext('"options" must be an object of options.')
        )
    seats = body.get("seats")
    if seats is not None:
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise ApiError(400, "bad_options", gettext('"seats" must be a number.'))
        options = {**options, "seats": seats}
    return variant, options


def practice_create(*, user: User, body: dict[str, Any]) -> Table:
    """A practice table against the server's computers, started (seat 0 is the
    player). ``body``: ``variant``, optional ``seats``, ``options``, ``level``
    (every computer) or ``levels`` (one per computer), ``speed``."""
    variant, options = _options(body)
    speed = body.get("speed", "normal")
    if speed not in BOT_SPEEDS:
        raise ApiError(
            400,
            "bad_speed",
            gettext("Computer speeds are slow, normal, fast or instant."),
        )
    levels = body.get("levels")
    if levels is None:
        level = body.get("level", "medium")
        try:
            count = engine.options_for(variant, **options).seats - 1
        except (engine.InvalidOptions, TypeError):
            count = 1  # the service below says what is wrong with the options
        levels = [level] * count
    if not isinstance(levels, list) or not all(isinstance(x, str) for x in levels):
        raise ApiError(
            400, "bad_levels", gettext("Computer levels are easy, medium or hard.")
        )
    return table_practice_create(
        user=user,
        variant=variant,
        options=options,
        bot_levels=levels,
        bot_speed=speed,
    )


@transaction.atomic
def challenge_create(
    *, user: User, username: str, body: dict[str, Any]
) -> RoomInvitation:
    """Invite ``username`` to a friendly (unrated) game in a new friend room of the
    challenger's; it starts as soon as they accept (seats nobody takes are the
    room's computers). ``body``: ``variant``, ``seats``, ``options``, ``clock``
    (seconds per turn, 10 to 120, or none), ``level`` of any computer seat."""
    variant, options = _options(body)
    clock = body.get("clock")
    if clock is not None and (not isinstance(clock, int) or isinstance(clock, bool)):
        raise ApiError(
            400, "bad_clock", gettext("The turn clock is off or 10 to 120 seconds.")
        )
    level = body.get("level", "medium")
    if not isinstance(level, str):
        raise ApiError(
            400, "bad_levels", gettext("Computer levels are easy, medium or hard.")
        )
    room = room_create(
        host=user,
        variant=variant,
        options=options,
        clock_seconds=clock,
        bot_level=level,
    )
    return invitation_send(room_id=room.pk, inviter=user, username=username)


@transaction.atomic
def challenge_accept(*, user: User, invitation_id: int) -> Table:
    """Take the challenge's seat and start its game at once."""
    room = invitation_accept(invitation_id=invitation_id, user=user)
    host = room.host
    if host is None:
        raise ApiError(409, "closed", gettext("This challenge is no longer open."))
    return room_start(room_id=room.pk, user=host)


def challenge_decline(*, user: User, invitation_id: int) -> None:
    invitation_decline(invitation_id=invitation_id, user=user)


@transaction.atomic
def challenge_cancel(*, user: User, invitation_id: int) -> None:
    """The challenger takes a challenge back before it is answered; their room
    closes with it."""
    invitation = RoomInvitation.objects.filter(pk=invitation_id).first()
    if invitation is None or invitation.inviter_id != user.pk:
        raise ApiError(404, "no_invitation", gettext("There is no such challenge."))
    invitation_withdraw(invitation_id=invitation_id, user=user)
    room_leave(room_id=invitation.room_id, user=user)
