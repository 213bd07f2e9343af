"""Friend-room writes: create, invite, answer, join by link, host actions, start,
leave and rematch.

Every service locks the room row first (``select_for_update``) and then, through
the games services, the table row: one order, so two writers never deadlock, and
two people answering for the last seat at once are served one after the other.
Pushes leave only after commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.errors import TableError
from games.models import Seat, Table
from games.services import (
    SeatTaker,
    seat_free,
    seat_join,
    seat_move,
    table_create,
    table_seated_create,
    table_start,
    table_waiting_cancel,
)
from matchmaking.errors import RoomError
from matchmaking.pools.conduct import block_ensure, block_exists
from matchmaking.rooms.codes import room_code_new, room_token_new
from matchmaking.rooms.models import (
    Room,
    RoomEvent,
    RoomInvitation,
    RoomRematchVote,
    RoomRemoval,
)
from matchmaking.rooms.notify import invitation_push, room_changed

BOT_LEVELS = ("easy", "medium", "hard")
CLOCK_RANGE = (10, 120)


def invitation_lifetime() -> timedelta:
    return timedelta(minutes=settings.ROOM_INVITATION_MINUTES)


# --- helpers (call inside a transaction, holding the room's lock)


def _room_lock(room_id: int) -> Room:
    room = Room.objects.select_for_update().filter(pk=room_id).first()
    if room is None:
        raise RoomError("no_room", _("There is no such room."))
    return room


def _event(
    room: Room, kind: str, username: str = "", *, removed: int | None = None
) -> None:
    """Append a line to the room's event list and nudge its open pages after
    commit: every change of a room writes one, so every change reaches them."""
    RoomEvent.objects.create(room=room, kind=kind, username=username)
    room_id = room.pk
    transaction.on_commit(lambda: room_changed(room_id=room_id, removed=removed))


def removed_refusal() -> RoomError:
    return RoomError(
        "removed",
        _(
            "The host removed you from this room. You can come back only if "
            "the host invites you again."
        ),
    )


def _seats(room: Room) -> list[Seat]:
    return list(Seat.objects.filter(table_id=room.table_id).select_related("user"))


def _player_name(seat: Seat) -> str:
    """The username of the person in a room seat ("" for a computer player)."""
    return seat.user.get_username() if seat.user is not None else ""


def _seat_count(room: Room) -> int:
    return int(engine.Options.from_dict(room.table.options).seats)


def _expire_stale(room: Room) -> None:
    RoomInvitation.objects.filter(
        room=room, status=RoomInvitation.Status.PENDING, expires_at__lte=timezone.now()
    ).update(status=RoomInvitation.Status.EXPIRED)


def _pending(room: Room) -> int:
    return RoomInvitation.objects.filter(
        room=room, status=RoomInvitation.Status.PENDING
    ).count()


def _require_open(room: Room) -> None:
    if room.status == Room.Status.CLOSED:
        raise RoomError("closed", _("This room has closed."))
    if room.status != Room.Status.OPEN:
        raise RoomError("started", _("This game has already started."))


def _require_host(room: Room, user: User) -> None:
    if room.host_id != user.pk:
        raise RoomError("not_host", _("Only the host can do that."))


def _sit(room: Room, user: User) -> None:
    """Seat ``user`` at the first free seat of the room's waiting table."""
    try:
        seat_join(table_id=room.table_id, user=user)
    except TableError as err:
        if err.code == "table_full":
            raise RoomError("full", _("Sorry, this room is full.")) from None
        if err.code == "already_seated":
            raise RoomError(
                "seated", _("You already have a seat in this room.")
            ) from None
        raise RoomError("started", _("This game has already started.")) from None


def _seat_free(room: Room, user_id: int) -> None:
    """Free a seated player's seat of the room's waiting table (room locked)."""
    try:
        seat_free(table_id=room.table_id, user_id=user_id)
    except TableError as err:
        if err.code == "not_seated":
            raise RoomError(
                "not_seated", _("That player has no seat in this room.")
            ) from None
        raise RoomError("started", _("This game has already started.")) from None


def room_table_leave(*, table_id: int, user: AbstractBaseUser) -> None:
    """The table socket's ``leave`` at a friend room's waiting table: Leave.

    Registered as the friend mode's leave handler (``games.leaving``); a refusal
    is a ``TableError`` with the same words, ``not_waiting`` once the game has
    started (the socket then leaves it as a started table: a forfeit).
    """
    if not isinstance(user, User):  # games.leaving types any auth user; ours are Users
        raise TypeError(f"not a player: {user!r}")
    room_id = Room.objects.filter(table_id=table_id).values_list("pk", flat=True)
    found = room_id.first()
    if found is None:
        raise TableError("no_room", _("There is no such room."))
    try:
        room_leave(room_id=found, user=user)
    except RoomError as err:
        code = "not_waiting" if err.code == "started" else err.code
        raise TableError(code, err.message) from None


def _close(room: Room) -> None:
    room.status = Room.Status.CLOSED
    room.closed_at = timezone.now()
    room.save(update_fields=["status", "closed_at"])
    RoomInvitation.objects.filter(
        room=room, status=RoomInvitation.Status.PENDING
    ).update(status=RoomInvitation.Status.EXPIRED)
    table_waiting_cancel(table_id=room.table_id)
    _event(room, RoomEvent.Kind.CLOSED)


# --- creating


@transaction.atomic
def room_create(
    *,
    host: User,
    variant: str,
    options: Mapping[str, Any] | None = None,
    clock_seconds: int | None = None,
    bot_level: str = "medium",
    host_seat: int = 0,
    allow_spectators: bool = False,
) -> Room:
    """A room on a waiting friend table; the host sits at once at ``host_seat``.

    Its tables are seen only by its members and invitees unless ``allow_spectators``.
    """
    if bot_level not in BOT_LEVELS:
        raise RoomError("bad_options", _("Computer levels are easy, medium or hard."))
    if clock_seconds is not None and not (
        CLOCK_RANGE[0] <= clock_seconds <= CLOCK_RANGE[1]
    ):
        raise RoomError("bad_options", _("The turn clock is off or 10 to 120 seconds."))
    try:
        table = table_create(
            mode=Table.Mode.FRIEND,
            variant=variant,
            options=options,
            host=host,
            clock_seconds=clock_seconds,
        )
        seats = engine.Options.from_dict(table.options).seats
        if not 0 <= host_seat < seats:
            raise RoomError("bad_options", _("Choose one of the room's seats."))
        seat_join(table_id=table.pk, user=host, position=host_seat)
    except TableError as err:
        raise RoomError("bad_options", err.message) from None
    room = Room.objects.create(
        host=host,
        table=table,
        bot_level=bot_level,
        allow_spectators=allow_spectators,
        token=room_token_new(),
        code=_unique_code(),
    )
    _event(room, RoomEvent.Kind.CREATED, host.get_username())
    return room


@transaction.atomic
def room_spectators_set(*, room_id: int, user: User, allow: bool) -> None:
    """The host lets anyone signed in watch the room's tables, or only its members."""
    room = _room_lock(room_id)
    _require_host(room, user)
    if room.allow_spectators != allow:
        room.allow_spectators = allow
        room.save(update_fields=["allow_spectators"])


def _unique_code() -> str:
    while True:
        code = room_code_new()
        if not Room.objects.filter(code=code).exists():
            return code


# --- inviting by username


def _invitee_check(room: Room, inviter: User, username: str) -> Any:
    refused = RoomError("unknown", _("No player can be invited under that name."))
    invitee = (
        get_user_model()
        .objects.filter(username__iexact=username.strip(), is_active=True)
        .first()
    )
    if invitee is None:
        raise refused
    if invitee.pk == inviter.pk:
        raise RoomError("self", _("You are in this room already."))
    if Seat.objects.filter(table_id=room.table_id, user=invitee).exists():
        raise RoomError("seated", _("That player already has a seat in this room."))
    if RoomInvitation.objects.filter(
        room=room, invitee=invitee, status=RoomInvitation.Status.PENDING
    ).exists():
        raise RoomError("invited", _("That player is invited already."))
    if block_exists(blocker_id=invitee.pk, blocked_id=inviter.pk):
        raise refused  # the same words as an unknown name: a block is not revealed
    return invitee


@transaction.atomic
def invitation_send(*, room_id: int, inviter: User, username: str) -> RoomInvitation:
    """Invite a player by username; their pages are told at once (after commit).

    The host may invite more people than there are free seats: the first to accept
    sits. Refused: a non-host, a room that started or is full, an unknown name, the
    inviter, someone seated or invited, someone who blocked the inviter, and more
    than ``ROOM_INVITATIONS_PER_MINUTE`` invitations from one person in a minute.
    """
    room = _room_lock(room_id)
    _require_host(room, inviter)
    _require_open(room)
    if len(_seats(room)) >= _seat_count(room):
        raise RoomError("full", _("Every seat is taken."))
    recent = RoomInvitation.objects.filter(
        inviter=inviter, created_at__gte=timezone.now() - timedelta(minutes=1)
    ).count()
    if recent >= settings.ROOM_INVITATIONS_PER_MINUTE:
        raise RoomError(
            "rate", _("Too many invitations in a minute; wait a little and try again.")
        )
    _expire_stale(room)
    invitee = _invitee_check(room, inviter, username)
    invitation = RoomInvitation.objects.create(
        room=room,
        inviter=inviter,
        invitee=invitee,
        expires_at=timezone.now() + invitation_lifetime(),
    )
    _event(room, RoomEvent.Kind.INVITED, invitee.get_username())
    payload = {
        "id": invitation.pk,
        "host": inviter.get_username(),
        "variant": room.table.variant,
        "seats": _seat_count(room),
        "accept": reverse("invitation-accept", args=[invitation.pk]),
        "decline": reverse("invitation-decline", args=[invitation.pk]),
    }
    transaction.on_commit(
        lambda: invitation_push(invitee_id=invitee.pk, invitation=payload)
    )
    return invitation


def _invitation_lock(invitation_id: int, user: User) -> RoomInvitation:
    """The invitee's own invitation, room locked first; refuses a foreign one."""
    found = RoomInvitation.objects.filter(pk=invitation_id).values("room_id").first()
    if found is None:
        raise RoomError("no_invitation", _("There is no such invitation."))
    room = _room_lock(found["room_id"])
    invitation = RoomInvitation.objects.select_for_update().get(pk=invitation_id)
    invitation.room = room
    if invitation.invitee_id != user.pk:
        raise RoomError("no_invitation", _("There is no such invitation."))
    return invitation


def _require_pending(invitation: RoomInvitation) -> None:
    if invitation.status == RoomInvitation.Status.PENDING and (
        invitation.expires_at <= timezone.now()
        or invitation.room.status != Room.Status.OPEN
    ):
        invitation.status = RoomInvitation.Status.EXPIRED
        invitation.save(update_fields=["status"])
    messages: dict[str, str] = {
        RoomInvitation.Status.EXPIRED: _("This invitation has expired."),
        RoomInvitation.Status.WITHDRAWN: _("This invitation was withdrawn."),
        RoomInvitation.Status.ACCEPTED: _("You have answered this invitation already."),
        RoomInvitation.Status.DECLINED: _("You have answered this invitation already."),
    }
    if invitation.status in messages:
        raise RoomError(invitation.status, messages[invitation.status])


@transaction.atomic
def invitation_accept(*, invitation_id: int, user: User) -> Room:
    """Take a seat in the room; refused (and the invitation kept) when it is full."""
    invitation = _invitation_lock(invitation_id, user)
    _require_pending(invitation)
    room = invitation.room
    _sit(room, user)
    _answer(invitation, RoomInvitation.Status.ACCEPTED)
    RoomRemoval.objects.filter(room=room, user=user).delete()
    _event(room, RoomEvent.Kind.JOINED, user.get_username())
    return room


def _answer(invitation: RoomInvitation, status: str) -> None:
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


@transaction.atomic
def invitation_decline(*, invitation_id: int, user: User, block: bool = False) -> None:
    """Say no; with ``block`` the inviter cannot invite this player again."""
    invitation = _invitation_lock(invitation_id, user)
    _require_pending(invitation)
    _answer(invitation, RoomInvitation.Status.DECLINED)
    _event(invitation.room, RoomEvent.Kind.DECLINED, user.get_username())
    if block:
        block_ensure(blocker_id=user.pk, blocked_id=invitation.inviter_id)


@transaction.atomic
def invitation_withdraw(*, invitation_id: int, user: User) -> None:
    """The host takes back an invitation that has not been answered."""
    found = RoomInvitation.objects.filter(pk=invitation_id).values("room_id").first()
    if found is None:
        raise RoomError("no_invitation", _("There is no such invitation."))
    room = _room_lock(found["room_id"])
    _require_host(room, user)
    invitation = RoomInvitation.objects.select_for_update().get(pk=invitation_id)
    invitation.room = room
    if invitation.status != RoomInvitation.Status.PENDING:
        raise RoomError("answered", _("This invitation is no longer open."))
    invitation.status = RoomInvitation.Status.WITHDRAWN
    invitation.save(update_fields=["status"])
    _event(room, RoomEvent.Kind.WITHDRAWN, invitation.invitee.get_username())


# --- joining by link


@transaction.atomic
def room_join(*, room_id: int, user: User) -> Room:
    """Take a free seat through the share link (the view resolved the token).

    Seats held for unanswered invitations are not free; a player who was invited
    takes one of those and their invitation counts as accepted. A player the host
    removed is refused until the host invites them again.
    """
    room = _room_lock(room_id)
    _require_open(room)
    _expire_stale(room)
    mine = RoomInvitation.objects.filter(
        room=room, invitee=user, status=RoomInvitation.Status.PENDING
    ).first()
    if mine is None:
        if RoomRemoval.objects.filter(room=room, user=user).exists():
            raise removed_refusal()
        seats = _seats(room)
        seated = len(seats)
        if any(s.user_id == user.pk for s in seats):
            raise RoomError("seated", _("You already have a seat in this room."))
        if seated + _pending(room) >= _seat_count(room):
            raise RoomError("full", _("Sorry, this room is full."))
    _sit(room, user)
    if mine is not None:
        _answer(mine, RoomInvitation.Status.ACCEPTED)
        RoomRemoval.objects.filter(room=room, user=user).delete()
    _event(room, RoomEvent.Kind.JOINED, user.get_username())
    return room


# --- host actions


@transaction.atomic
def room_seat_move(*, room_id: int, user: User, player_id: int, position: int) -> None:
    """The host moves a seated player to another seat (swapping with whoever is
    there), so partners are chosen by seat."""
    room = _room_lock(room_id)
    _require_host(room, user)
    _require_open(room)
    if not 0 <= position < _seat_count(room):
        raise RoomError("bad_seat", _("Choose one of the room's seats."))
    not_seated = RoomError("not_seated", _("That player has no seat in this room."))
    seat = next((s for s in _seats(room) if s.user_id == player_id), None)
    if seat is None:
        raise not_seated
    if seat.position == position:
        return
    try:
        seat_move(table_id=room.table_id, user_id=player_id, position=position)
    except TableError as err:
        # The player left through the table page meanwhile.
        if err.code == "not_seated":
            raise not_seated from None
        raise RoomError("started", _("This game has already started.")) from None
    _event(room, RoomEvent.Kind.MOVED, _player_name(seat))


@transaction.atomic
def room_remove(*, room_id: int, user: User, player_id: int) -> None:
    """The host asks a seated player to leave before the start.

    The player's open room pages are told, and the link and the code refuse them
    until the host invites them again (a ``RoomRemoval`` until then).
    """
    room = _room_lock(room_id)
    _require_host(room, user)
    _require_open(room)
    if player_id == user.pk:
        raise RoomError("self", _("Use Leave to leave the room yourself."))
    seat = next((s for s in _seats(room) if s.user_id == player_id), None)
    if seat is None:
        raise RoomError("not_seated", _("That player has no seat in this room."))
    _seat_free(room, player_id)
    RoomRemoval.objects.get_or_create(room=room, user_id=player_id)
    _event(room, RoomEvent.Kind.REMOVED, _player_name(seat), removed=player_id)


@transaction.atomic
def room_leave(*, room_id: int, user: User) -> None:
    """Leave before the start. A leaving host hands the room to the next seated
    person (by seat); the last one out closes it.

    The one way a person gives up a waiting room seat: the room page's Leave, and
    the table socket's ``leave`` through :func:`room_table_leave`.
    """
    room = _room_lock(room_id)
    _require_open(room)
    seats = _seats(room)
    if not any(s.user_id == user.pk for s in seats):
        raise RoomError("not_seated", _("You have no seat in this room."))
    _seat_free(room, user.pk)
    _event(room, RoomEvent.Kind.LEFT, user.get_username())
    rest = [s for s in seats if s.user_id != user.pk]
    if not rest:
        _close(room)
        return
    if room.host_id == user.pk:
        room.host = rest[0].user
        room.save(update_fields=["host"])
        _event(room, RoomEvent.Kind.HOST, _player_name(rest[0]))


@transaction.atomic
def room_table_cancelled(*, table_id: int) -> bool:
    """Close the room whose current table was cancelled from ``games`` (staff's
    Cancel, an abandoned table); True if this call closed it.

    Registered for ``table_cancelled``: the room's books follow its table, so the
    room page says it closed instead of offering a start or a rematch of a table
    that no longer plays. A room closed already, or playing another table, is left.
    """
    room = (
        Room.objects.select_for_update()
        .filter(table_id=table_id, status__in=[Room.Status.OPEN, Room.Status.PLAYING])
        .first()
    )
    if room is None:
        return False
    _close(room)
    return True


@transaction.atomic
def room_start(*, room_id: int, user: User) -> Table:
    """Start now: empty and unanswered seats become computer players of the room's
    level; unanswered invitations expire."""
    room = _room_lock(room_id)
    _require_host(room, user)
    _require_open(room)
    seats = _seats(room)
    if not any(s.user_id == user.pk for s in seats):
        raise RoomError("not_seated", _("Take a seat before you start the game."))
    taken = {s.position for s in seats}
    try:
        for position in range(_seat_count(room)):
            if position not in taken:
                seat_join(
                    table_id=room.table_id, bot_level=room.bot_level, position=position
                )
        RoomInvitation.objects.filter(
            room=room, status=RoomInvitation.Status.PENDING
        ).update(status=RoomInvitation.Status.EXPIRED)
        table = table_start(table_id=room.table_id)
    except TableError:
        # The room's table is no longer waiting (an operator cancelled it).
        raise RoomError("closed", _("This room has closed.")) from None
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status"])
    _event(room, RoomEvent.Kind.STARTED, user.get_username())
    return table


# --- rematch


@transaction.atomic
def room_rematch(*, room_id: int, user: User) -> Table | None:
    """Agree to a rematch of the room's finished table.

    When every person who played it to the end has agreed, a new table starts in
    the same room with the same options and everyone one seat further round
    (seat p sits at p + 1); computer players keep their levels, and the seat of a
    person who left the match goes to a computer of the room's level. Returns the
    new table then, None while votes are missing.
    """
    room = _room_lock(room_id)
    table = room.table
    seats = _seats(room)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise RoomError(
            "not_seated", _("Only the players of this game can ask for a rematch.")
        )
    if room.status != Room.Status.PLAYING or table.status != Table.Status.FINISHED:
        raise RoomError("not_finished", _("A rematch opens when the game has ended."))
    vote, created = RoomRematchVote.objects.get_or_create(
        room=room, table=table, user=user
    )
    if created:
        _event(room, RoomEvent.Kind.REMATCH, user.get_username())
    people = {s.user_id for s in seats if s.user_id is not None and not s.forfeited}
    agreed = set(
        RoomRematchVote.objects.filter(table=table).values_list("user_id", flat=True)
    )
    if not people <= agreed:
        return None
    return _rematch_start(room, table, seats)


def _rematch_start(room: Room, old: Table, seats: list[Seat]) -> Table:
    options = {k: v for k, v in old.options.items() if k != "variant"}
    count = len(seats)
    takers: list[SeatTaker | None] = [None] * count
    for seat in seats:
        if seat.user_id is not None and not seat.forfeited:
            taker = SeatTaker(user=seat.user)
        else:
            taker = SeatTaker(bot_level=seat.bot_level or room.bot_level)
        takers[(seat.position + 1) % count] = taker
    started = table_seated_create(
        mode=Table.Mode.FRIEND,
        variant=old.variant,
        options=options,
        seats=[t for t in takers if t is not None],
        host=room.host,
        clock_seconds=old.clock_seconds,
        hand_pause_seconds=old.hand_pause_seconds,
    )
    room.table = started
    room.save(update_fields=["table"])
    _event(room, RoomEvent.Kind.STARTED)
    return started
