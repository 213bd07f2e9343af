"""``/friends/``: the list with who is online and playing, requests both ways, and
the forms that send, answer, withdraw and remove. Every POST answers with a
redirect and a message (the player's words for a refusal)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from friends import services
from friends.errors import FriendError
from friends.models import Friendship
from friends.selectors import friends_of, requests_received, requests_sent
from friends.watching import watch_list
from matchmaking.errors import RoomError
from matchmaking.rooms.services import invitation_send, room_create

# The room a one-click invitation opens: two seats of Draw, the friend invited.
QUICK_ROOM_VARIANT = "draw"


def _back(request: SignedInRequest) -> HttpResponse:
    """Back where the form was (a profile, a room, a table), else the friends page."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("friends")


@login_required
def watch_page(request: SignedInRequest) -> HttpResponse:
    """Live tables to watch, friends' first."""
    return render(
        request, "friends/watch.html", {"rows": watch_list(user=request.user)}
    )


@login_required
def friends_page(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "friends/friends.html",
        {
            "friends": friends_of(user=request.user),
            "received": requests_received(user=request.user),
            "sent": requests_sent(user=request.user),
        },
    )


@login_required
@require_POST
def friend_add(request: SignedInRequest) -> HttpResponse:
    name = request.POST.get("username", "")
    try:
        made = services.friend_request_send(sender=request.user, username=name)
    except FriendError as err:
        messages.error(request, err.message)
    else:
        if isinstance(made, Friendship):
            messages.success(request, _("You are now friends."))
        else:
            messages.success(request, _("Friend request sent."))
    return _back(request)


def _answer(request: SignedInRequest, request_id: int, action: str) -> HttpResponse:
    notes = {
        "accept": _("You are now friends."),
        "decline": _("Request declined."),
        "cancel": _("Request withdrawn."),
    }
    run = {
        "accept": services.friend_request_accept,
        "decline": services.friend_request_decline,
        "cancel": services.friend_request_cancel,
    }[action]
    try:
        run(request_id=request_id, user=request.user)
    except FriendError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, notes[action])
    return _back(request)


@login_required
@require_POST
def request_accept(request: SignedInRequest, request_id: int) -> HttpResponse:
    return _answer(request, request_id, "accept")


@login_required
@require_POST
def request_decline(request: SignedInRequest, request_id: int) -> HttpResponse:
    return _answer(request, request_id, "decline")


@login_required
@require_POST
def request_cancel(request: SignedInRequest, request_id: int) -> HttpResponse:
    return _answer(request, request_id, "cancel")


@login_required
@require_POST
def friend_remove(request: SignedInRequest) -> HttpResponse:
    try:
        services.friend_remove(
            user=request.user, username=request.POST.get("username", "")
        )
    except FriendError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("Removed from your friends."))
    return _back(request)


@login_required
@require_POST
def friend_invite(request: SignedInRequest) -> HttpResponse:
    """A new room of two with the friend invited: one click from the list."""
    name = request.POST.get("username", "")
    friend = get_user_model().objects.filter(username=name, is_active=True).first()
    if friend is None or not services.are_friends(request.user.pk, friend.pk):
        messages.error(request, _("You can invite only your friends from here."))
        return redirect("friends")
    try:
        room = room_create(
            host=request.user,
            variant=QUICK_ROOM_VARIANT,
            options={"seats": 2},
        )
        invitation_send(room_id=room.pk, inviter=request.user, username=name)
    except RoomError as err:
        messages.error(request, err.message)
        return redirect("friends")
    messages.success(
        request, _("Room opened and %(name)s invited.") % {"name": friend.username}
    )
    return redirect("room", room_id=room.pk)
