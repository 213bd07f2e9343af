"""Friend-room pages and endpoints: thin shells over ``matchmaking.rooms.services``.

A POST answers with a redirect and a message, or with JSON when the page's script
asks for it (``Accept: application/json``): ``{"url": ...}`` or ``{"error": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.bots import bot_site_refusal
from core.requests import SignedInRequest
from games.engine import VARIANTS
from games.models import Table
from games.names import LEVEL_WORDS, variant_dict, variant_title
from matchmaking.errors import RoomError
from matchmaking.rooms import selectors
from matchmaking.rooms import services as rooms
from matchmaking.rooms.codes import (
    room_code_blocked,
    room_code_miss,
    room_code_normalise,
)
from matchmaking.rooms.forms import RoomForm
from matchmaking.rooms.models import Room
from matchmaking.rooms.selectors import (
    invitation_open,
    invitations_pending,
    recent_opponents,
    room_for_code,
    room_for_token,
    room_full,
    room_member,
    room_page,
    room_removed,
    room_seat_count,
    rooms_of,
    usernames_matching,
)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _done(request: HttpRequest, url: str, note: str = "") -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"url": url})
    if note:
        messages.success(request, note)
    return redirect(url)


def _refused(request: HttpRequest, url: str, err: RoomError) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"error": err.message}, status=400)
    messages.error(request, err.message)
    return redirect(url)


def _member_room(request: SignedInRequest, room_id: int) -> Room:
    room = Room.objects.select_related("table", "host").filter(pk=room_id).first()
    if room is None or not room_member(room=room, user=request.user):
        raise Http404(_("There is no such room."))
    return room


def _int(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise RoomError("bad_input", _("Choose a player and a seat.")) from None


@login_required
def room_new(request: SignedInRequest) -> HttpResponse:
    if request.method == "POST":
        form = RoomForm(request.POST)
        if why := bot_site_refusal(user_id=request.user.pk):  # plays by the API
            form.add_error(None, why)
        elif form.is_valid():
            try:
                room = rooms.room_create(host=request.user, **form.room_arguments())
            except RoomError as err:
                form.add_error(None, err.message)
            else:
                return redirect("room", room_id=room.pk)
        status = 400
    else:
        form, status = RoomForm(), 200
    variants = {key: variant_dict(spec) for key, spec in VARIANTS.items()}
    return render(
        request,
        "matchmaking/rooms/room_new.html",
        {
            "form": form,
            "layout": form.layout(),
            "variants": variants,
            "variant_list": list(variants.values()),
        },
        status=status,
    )


@login_required
def room_of_table(request: SignedInRequest, table_id: int) -> HttpResponse:
    """The room whose current table this is (the table page's way back), for its
    members only: anyone else gets the same 404 as for no room."""
    room = Room.objects.filter(table_id=table_id).first()
    if room is None or not room_member(room=room, user=request.user):
        raise Http404(_("There is no such room."))
    return redirect("room", room_id=room.pk)


@login_required
def room_detail(request: SignedInRequest, room_id: int) -> HttpResponse:
    room = _member_room(request, room_id)
    page = room_page(room=room, user=request.user)
    link = request.build_absolute_uri(reverse("room-join", args=[room.token]))
    return render(
        request,
        "matchmaking/rooms/room.html",
        {
            "page": page,
            "room": room,
            "link": link,
            "table_url": reverse("table", args=[room.table_id]),
            "bot_level": LEVEL_WORDS.get(room.bot_level, room.bot_level),
            "recent": recent_opponents(user=request.user) if page.is_host else [],
            "seat_numbers": range(1, len(page.seats) + 1),
        },
    )


@login_required
@require_GET
def room_state(request: SignedInRequest, room_id: int) -> JsonResponse:
    """A member's room state: a version to compare and where to go (the room
    socket pushes the same; the page reads this while its socket is refused)."""
    state = selectors.room_state(room_id=room_id, user=request.user)
    if state is None:
        raise Http404(_("There is no such room."))
    return JsonResponse(state)


def _room_action(
    request: HttpRequest,
    room_id: int,
    call: Callable[[], Any],
    note: str = "",
    goto: Callable[[Any], str] | None = None,
) -> HttpResponse:
    """Run a room service; go to ``goto(result)`` (default: the room page) or back
    to the room with the refusal."""
    url = reverse("room", args=[room_id])
    try:
        result = call()
    except RoomError as err:
        return _refused(request, url, err)
    return _done(request, goto(result) if goto else url, note)


def _table_url(table: Table | None) -> str:
    return reverse("table", args=[table.pk]) if table else ""


@login_required
@require_POST
def room_invite(request: SignedInRequest, room_id: int) -> HttpResponse:
    name = request.POST.get("username", "")[:150]
    return _room_action(
        request,
        room_id,
        lambda: rooms.invitation_send(
            room_id=room_id, inviter=request.user, username=name
        ),
        _("Invitation sent."),
    )


@login_required
@require_POST
def room_start(request: SignedInRequest, room_id: int) -> HttpResponse:
    return _room_action(
        request,
        room_id,
        lambda: rooms.room_start(room_id=room_id, user=request.user),
        goto=_table_url,
    )


@login_required
@require_POST
def room_move(request: SignedInRequest, room_id: int) -> HttpResponse:
    def move() -> None:
        rooms.room_seat_move(
            room_id=room_id,
            user=request.user,
            player_id=_int(request, "player"),
            position=_int(request, "seat") - 1,
        )

    return _room_action(request, room_id, move)


@login_required
@require_POST
def room_remove(request: SignedInRequest, room_id: int) -> HttpResponse:
    return _room_action(
        request,
        room_id,
        lambda: rooms.room_remove(
            room_id=room_id, user=request.user, player_id=_int(request, "player")
        ),
    )


@login_required
@require_POST
def room_leave(request: SignedInRequest, room_id: int) -> HttpResponse:
    return _room_action(
        request,
        room_id,
        lambda: rooms.room_leave(room_id=room_id, user=request.user),
        _("You left the room."),
        goto=lambda _result: reverse("home"),
    )


@login_required
@require_POST
def room_spectators(request: SignedInRequest, room_id: int) -> HttpResponse:
    """The host turns "allow spectators" on or off."""
    allow = request.POST.get("allow") == "1"
    return _room_action(
        request,
        room_id,
        lambda: rooms.room_spectators_set(
            room_id=room_id, user=request.user, allow=allow
        ),
        _("Anyone signed in may now watch.")
        if allow
        else _("Only the players and the people invited may watch now."),
    )


@login_required
@require_POST
def room_rematch(request: SignedInRequest, room_id: int) -> HttpResponse:
    """Agree to a rematch; everyone goes to the new table once all have agreed."""
    return _room_action(
        request,
        room_id,
        lambda: rooms.room_rematch(room_id=room_id, user=request.user),
        goto=lambda table: _table_url(table) or reverse("room", args=[room_id]),
    )


def room_join(request: HttpRequest, token: str) -> HttpResponse:
    """The share link: GET shows the room and a Join button, POST takes a seat.

    Someone not signed in sees who invites them to what, with sign-up first (and
    log-in), both coming back here. A full, started or closed room says so instead
    of offering a seat; so does a room whose host removed the visitor.
    """
    room = room_for_token(token=token[:64])
    if room is None:
        return render(
            request,
            "matchmaking/rooms/room_join.html",
            {
                "error": _(
                    "This link does not lead to a room. Check it or ask for a new one."
                )
            },
            status=404,
        )
    context: dict[str, Any] = {
        "room": room,
        "title": variant_title(room.table.variant),
        "seats": room_seat_count(room=room),
    }
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        context["back"] = request.get_full_path()
        return render(request, "matchmaking/rooms/room_join.html", context)
    if room_member(room=room, user=user) and request.method != "POST":
        return redirect("room", room_id=room.pk)
    if request.method == "POST":
        try:
            if why := bot_site_refusal(user_id=user.pk):  # plays by the API
                raise RoomError("bot_account", why)
            rooms.room_join(room_id=room.pk, user=user)
        except RoomError as err:
            messages.error(request, err.message)
        else:
            return redirect("room", room_id=room.pk)
    context["removed"] = room_removed(room=room, user=user)
    context["full"] = room_full(room=room)
    return render(request, "matchmaking/rooms/room_join.html", context)


@login_required
def room_code(request: SignedInRequest) -> HttpResponse:
    """Type the short code read aloud; it leads to the same page as the link."""
    error = ""
    if request.method == "POST" and room_code_blocked(user_id=request.user.pk):
        error = _("Too many wrong codes. Wait a few minutes, or ask for the link.")
    elif request.method == "POST":
        room = room_for_code(
            code=room_code_normalise(request.POST.get("code", "")[:20])
        )
        if room is not None:
            return redirect("room-join", token=room.token)
        room_code_miss(user_id=request.user.pk)
        error = _("No room has that code. Check the letters and try again.")
    return render(
        request,
        "matchmaking/rooms/room_join.html",
        {"code_form": True, "error": error},
        status=400 if error else 200,
    )


@login_required
def invitations(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "matchmaking/rooms/invitations.html",
        {
            "invitations": invitations_pending(user=request.user),
            "rooms": rooms_of(user=request.user),
        },
    )


@login_required
@require_POST
def invitation_accept(request: SignedInRequest, invitation_id: int) -> HttpResponse:
    try:
        if why := bot_site_refusal(user_id=request.user.pk):  # plays by the API
            raise RoomError("bot_account", why)
        room = rooms.invitation_accept(invitation_id=invitation_id, user=request.user)
    except RoomError as err:
        return _refused(request, reverse("invitations"), err)
    return _done(request, reverse("room", args=[room.pk]))


@login_required
@require_GET
def invitation_block_confirm(
    request: SignedInRequest, invitation_id: int
) -> HttpResponse:
    """Say what blocking does before "Decline and block" is sent."""
    invitation = invitation_open(invitation_id=invitation_id, user=request.user)
    if invitation is None:
        messages.error(request, _("This invitation can no longer be answered."))
        return redirect("invitations")
    return render(
        request,
        "matchmaking/rooms/invitation_block.html",
        {
            "invitation": invitation,
            "inviter": invitation.inviter.get_username(),
            "title": variant_title(invitation.room.table.variant),
        },
    )


@login_required
@require_POST
def invitation_decline(request: SignedInRequest, invitation_id: int) -> HttpResponse:
    try:
        rooms.invitation_decline(
            invitation_id=invitation_id,
            user=request.user,
            block=request.POST.get("block") == "1",
        )
    except RoomError as err:
        return _refused(request, reverse("invitations"), err)
    if request.POST.get("block") == "1":
        return _done(
            request,
            reverse("invitations"),
            _("Invitation declined. You blocked that player; see your profile."),
        )
    return _done(request, reverse("invitations"), _("Invitation declined."))


@login_required
@require_POST
def invitation_withdraw(request: SignedInRequest, invitation_id: int) -> HttpResponse:
    room_id = _int_or_zero(request.POST.get("room", ""))
    url = reverse("room", args=[room_id]) if room_id else reverse("invitations")
    try:
        rooms.invitation_withdraw(invitation_id=invitation_id, user=request.user)
    except RoomError as err:
        return _refused(request, url, err)
    return _done(request, url)


def _int_or_zero(raw: str) -> int:
    return int(raw) if raw.isdigit() else 0


@login_required
@require_GET
def usernames(request: SignedInRequest) -> JsonResponse:
    """Autocomplete: names starting with ``q`` (names only, never e-mail)."""
    prefix = request.GET.get("q", "")[:150]
    return JsonResponse(
        {"usernames": usernames_matching(prefix=prefix, user=request.user)}
    )
