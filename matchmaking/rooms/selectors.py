"""Friend-room reads: a room as its members see it, invitations, names to invite."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from matchmaking.rooms.models import Room, RoomInvitation, RoomRematchVote, RoomRemoval

USERNAME_MATCHES = 8
RECENT_OPPONENTS = 6


def room_for_token(*, token: str) -> Room | None:
    return Room.objects.select_related("table", "host").filter(token=token).first()


def room_for_code(*, code: str) -> Room | None:
    return Room.objects.filter(code=code).first()


def _open_invitations(user: User) -> Any:
    return RoomInvitation.objects.filter(
        invitee=user,
        status=RoomInvitation.Status.PENDING,
        expires_at__gt=timezone.now(),
        room__status=Room.Status.OPEN,
    )


def invitations_pending(*, user: User) -> list[RoomInvitation]:
    """The player's unanswered invitations that can still be accepted."""
    return list(
        _open_invitations(user)
        .select_related("inviter", "room__table")
        .order_by("-created_at")
    )


def invitation_open(*, invitation_id: int, user: User) -> RoomInvitation | None:
    """One of the player's own invitations that can still be answered."""
    found: RoomInvitation | None = (
        _open_invitations(user)
        .select_related("inviter", "room__table")
        .filter(pk=invitation_id)
        .first()
    )
    return found


def invitations_open(user: User) -> Any:
    """The player's invitations that can still be accepted, as a queryset (the
    navigation counts them: ``accounts.nav_counts``)."""
    return _open_invitations(user)


def rooms_of(*, user: User) -> list[Room]:
    """Open or playing rooms where the player is seated or hosts."""
    tables = Seat.objects.filter(user=user).values("table_id")
    return list(
        Room.objects.filter(
            Q(table_id__in=tables) | Q(host=user),
            status__in=[Room.Status.OPEN, Room.Status.PLAYING],
        )
        .select_related("table", "host")
        .order_by("-created_at")
    )


def usernames_matching(*, prefix: str, user: User) -> list[str]:
    """Active players whose name starts with ``prefix`` (names only, never e-mail)."""
    prefix = prefix.strip()
    if not prefix or "@" in prefix:
        return []
    names = (
        get_user_model()
        .objects.filter(username__istartswith=prefix, is_active=True)
        .exclude(pk=user.pk)
        .order_by("username")
        .values_list("username", flat=True)[:USERNAME_MATCHES]
    )
    return list(names)


def recent_opponents(*, user: User) -> list[str]:
    """The people the player sat with at their latest tables, most recent first."""
    tables = (
        Seat.objects.filter(user=user)
        .exclude(table__status=Table.Status.WAITING)
        .order_by("-table__created_at")
        .values_list("table_id", flat=True)[:30]
    )
    rows = (
        Seat.objects.filter(table_id__in=list(tables), user__isnull=False)
        .exclude(user=user)
        .order_by("-table__created_at")
        .values_list("user__username", flat=True)
    )
    names: list[str] = []
    for name in rows:
        if name not in names:
            names.append(name)
        if len(names) == RECENT_OPPONENTS:
            break
    return names


@dataclass
class SeatLine:
    position: int
    username: str
    user_id: int | None
    bot_level: str
    bot_label: str
    is_host: bool
    place: int | None
    agreed: bool


@dataclass
class RoomPage:
    """Everything the room page and its polling endpoint show."""

    room: Room
    seats: list[SeatLine | None]
    invited: list[RoomInvitation]
    events: list[Any]
    is_host: bool
    is_seated: bool
    table_status: str
    rematch_open: bool
    agreed: bool
    teams: bool = False
    version: str = field(default="")


def room_member(*, room: Room, user: User) -> bool:
    """Seated now, the host, or holding an open invitation."""
    return (
        room.host_id == user.pk
        or Seat.objects.filter(table_id=room.table_id, user=user).exists()
        or RoomInvitation.objects.filter(
            room=room, invitee=user, status=RoomInvitation.Status.PENDING
        ).exists()
    )


def room_table_watchable(table: Table, user: User) -> bool:
    """Whether someone not seated at a friend table may see it (``games.watchers``).

    The rooms that played it (its room now, or the room of an earlier game
    that was rematched, whose votes name it) decide: their members and invitees
    may, anyone may if the host allows spectators. A friend table of no room is
    seen by its players only.
    """
    rooms = Room.objects.filter(Q(table=table) | Q(votes__table=table)).distinct()
    return any(
        room.allow_spectators or room_member(room=room, user=user) for room in rooms
    )


def room_page(*, room: Room, user: User) -> RoomPage:
    table = room.table
    options = engine.Options.from_dict(table.options)
    votes = set(
        RoomRematchVote.objects.filter(table=table).values_list("user_id", flat=True)
    )
    by_position = {
        s.position: s for s in Seat.objects.filter(table=table).select_related("user")
    }
    seats: list[SeatLine | None] = []
    for position in range(options.seats):
        s = by_position.get(position)
        seats.append(
            None
            if s is None
            else SeatLine(
                position=position,
                username=s.user.get_username() if s.user else "",
                user_id=s.user_id,
                bot_level=s.bot_level,
                bot_label=str(Seat.BotLevel(s.bot_level).label) if s.bot_level else "",
                is_host=s.user_id is not None and s.user_id == room.host_id,
                place=s.place,
                agreed=s.user_id in votes,
            )
        )
    invited = list(
        room.invitations.filter(
            status=RoomInvitation.Status.PENDING, expires_at__gt=timezone.now()
        ).select_related("invitee")
    )
    events = list(room.events.order_by("-pk")[:30])
    is_seated = any(s is not None and s.user_id == user.pk for s in seats)
    finished = table.status == Table.Status.FINISHED
    version = f"{room.status}:{table.pk}:{table.status}:{events[0].pk if events else 0}"
    return RoomPage(
        room=room,
        seats=seats,
        invited=invited,
        events=events,
        is_host=room.host_id == user.pk,
        is_seated=is_seated,
        table_status=table.status,
        rematch_open=finished and room.status == Room.Status.PLAYING,
        agreed=user.pk in votes,
        teams=bool(options.partnership),
        version=version,
    )


def room_removed(*, room: Room, user: User) -> bool:
    """Whether the host removed ``user`` and has not invited them again."""
    return bool(RoomRemoval.objects.filter(room=room, user=user).exists())


def room_seat_count(*, room: Room) -> int:
    return int(engine.Options.from_dict(room.table.options).seats)


def room_full(*, room: Room) -> bool:
    """Whether a stranger with the link would find no free seat: every seat is
    taken or held for an unanswered invitation."""
    seats = room_seat_count(room=room)
    taken = Seat.objects.filter(table_id=room.table_id).count()
    held = RoomInvitation.objects.filter(
        room=room, status=RoomInvitation.Status.PENDING, expires_at__gt=timezone.now()
    ).count()
    return bool(taken + held >= seats)


def room_state(*, room_id: int, user: User) -> dict[str, Any] | None:
    """What a member's room page compares (``version``) and where a seated player
    goes once the game is on (``table``); None for anyone who is not a member.

    The one read behind the state URL and the room socket, so both refuse alike.
    """
    room = Room.objects.select_related("table").filter(pk=room_id).first()
    if room is None or not room_member(room=room, user=user):
        return None
    page = room_page(room=room, user=user)
    playing = page.table_status == Table.Status.PLAYING and page.is_seated
    return {
        "version": page.version,
        "table": reverse("table", args=[room.table_id]) if playing else None,
    }
