"""``/clubs/`` (the directory, the player's clubs, a new club) and
``/clubs/<slug>/`` (members, ratings, who is online, results, requests, the chat),
and the forms that join, ask, answer, leave, remove, name leaders, edit and invite
to a room. Every POST answers with a redirect and a message (the player's words
for a refusal)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import services
from clubs.chat import club_chat_history, club_line_report
from clubs.errors import ClubError
from clubs.models import DESCRIPTION_MAX, NAME_MAX, Club, JoinRequest, Member
from clubs.sections import club_sections
from clubs.selectors import club_directory, club_page, clubs_of, language_name
from core.requests import SignedInRequest
from matchmaking.errors import RoomError
from matchmaking.rooms.services import invitation_send, room_create

# The room a one-click invitation opens: two seats of Draw, the member invited.
QUICK_ROOM_VARIANT = "draw"


def _languages() -> list[tuple[str, str]]:
    return [(code, str(name)) for code, name in settings.LANGUAGES]


@login_required
def clubs_page(request: SignedInRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    return render(
        request,
        "clubs/clubs.html",
        {
            "page": club_directory(query=query, page=request.GET.get("page", 1)),
            "query": query,
            "mine": clubs_of(user=request.user),
            "languages": _languages(),
            "language": get_language(),
            "name_max": NAME_MAX,
            "description_max": DESCRIPTION_MAX,
        },
    )


@login_required
@require_POST
def club_new(request: SignedInRequest) -> HttpResponse:
    try:
        club = services.club_create(
            user=request.user,
            name=request.POST.get("name", ""),
            description=request.POST.get("description", ""),
            language=request.POST.get("language", ""),
            open=request.POST.get("open") == "1",
        )
    except ClubError as err:
        messages.error(request, err.message)
        return redirect("clubs")
    messages.success(request, _("Your club is ready: invite the players you know."))
    return redirect("club", slug=club.slug)


def _club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404(_("There is no such club."))
    return club


@login_required
def club_detail(request: SignedInRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    page = club_page(club=club, viewer=request.user)
    return render(
        request,
        "clubs/club.html",
        {
            "page": page,
            "club": club,
            "club_language": language_name(club.language),
            "history": (
                club_chat_history(club_id=club.pk, reader_id=request.user.pk)
                if page.viewer
                else []
            ),
            "languages": _languages(),
            "description_max": DESCRIPTION_MAX,
            "sections": club_sections(request, club, page.viewer),
        },
    )


def _done(request: SignedInRequest, slug: str, text: str) -> HttpResponse:
    messages.success(request, text)
    return redirect("club", slug=slug)


def _refused(request: SignedInRequest, slug: str, err: ClubError) -> HttpResponse:
    messages.error(request, err.message)
    if Club.objects.filter(slug=slug).exists():
        return redirect("club", slug=slug)
    return redirect("clubs")


@login_required
@require_POST
def club_join(request: SignedInRequest, slug: str) -> HttpResponse:
    try:
        made = services.club_join(user=request.user, slug=slug)
    except ClubError as err:
        return _refused(request, slug, err)
    if isinstance(made, JoinRequest):
        return _done(request, slug, _("Request sent: a leader will answer."))
    return _done(request, slug, _("Welcome to the club."))


@login_required
@require_POST
def club_leave(request: SignedInRequest, slug: str) -> HttpResponse:
    try:
        closed = services.club_leave(user=request.user, slug=slug)
    except ClubError as err:
        return _refused(request, slug, err)
    if closed:
        messages.success(request, _("You were the last member: the club is closed."))
    else:
        messages.success(request, _("You left the club."))
    return redirect("clubs")


@login_required
@require_POST
def club_edit(request: SignedInRequest, slug: str) -> HttpResponse:
    try:
        services.club_edit(
            leader=request.user,
            slug=slug,
            description=request.POST.get("description", ""),
            language=request.POST.get("language", ""),
            open=request.POST.get("open") == "1",
        )
    except ClubError as err:
        return _refused(request, slug, err)
    return _done(request, slug, _("The club is updated."))


def _request_id(raw: str) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return 0


@login_required
@require_POST
def request_answer(request: SignedInRequest, slug: str) -> HttpResponse:
    accept = request.POST.get("answer") == "accept"
    try:
        services.join_request_answer(
            leader=request.user,
            request_id=_request_id(request.POST.get("request", "")),
            accept=accept,
        )
    except ClubError as err:
        return _refused(request, slug, err)
    return _done(
        request, slug, _("Request accepted.") if accept else _("Request declined.")
    )


@login_required
@require_POST
def request_cancel(request: SignedInRequest, slug: str) -> HttpResponse:
    try:
        services.join_request_cancel(
            user=request.user,
            request_id=_request_id(request.POST.get("request", "")),
        )
    except ClubError as err:
        return _refused(request, slug, err)
    return _done(request, slug, _("Request withdrawn."))


@login_required
@require_POST
def member_action(request: SignedInRequest, slug: str) -> HttpResponse:
    """A leader's action on a member: ``remove`` or ``lead`` (name a leader)."""
    username = request.POST.get("username", "")
    action = request.POST.get("action", "")
    try:
        if action == "remove":
            services.member_remove(leader=request.user, slug=slug, username=username)
            text = _("%(name)s is no longer in the club.")
        elif action == "lead":
            services.leader_name(leader=request.user, slug=slug, username=username)
            text = _("%(name)s is now a leader.")
        else:
            raise ClubError("bad_action", _("Choose what to do with the member."))
    except ClubError as err:
        return _refused(request, slug, err)
    return _done(request, slug, text % {"name": username})


@login_required
@require_POST
def step_down(request: SignedInRequest, slug: str) -> HttpResponse:
    try:
        services.leader_step_down(user=request.user, slug=slug)
    except ClubError as err:
        return _refused(request, slug, err)
    return _done(request, slug, _("You are a member now, no longer a leader."))


@login_required
@require_POST
def member_invite(request: SignedInRequest, slug: str) -> HttpResponse:
    """A new room of two with a fellow member invited: one click from the club."""
    club = _club(slug)
    name = request.POST.get("username", "")
    members = Member.objects.filter(club=club)
    invitee = members.filter(user__username=name, user__is_active=True).first()
    if not members.filter(user=request.user).exists() or invitee is None:
        messages.error(request, _("You can invite only your club's members from here."))
        return redirect("club", slug=slug)
    try:
        # A refused invitation leaves no empty room behind.
        with transaction.atomic():
            room = room_create(
                host=request.user, variant=QUICK_ROOM_VARIANT, options={"seats": 2}
            )
            invitation_send(room_id=room.pk, inviter=request.user, username=name)
    except RoomError as err:
        messages.error(request, err.message)
        return redirect("club", slug=slug)
    messages.success(request, _("Room opened and %(name)s invited.") % {"name": name})
    return redirect("room", room_id=room.pk)


@login_required
@require_POST
def line_report(request: SignedInRequest, line_id: int) -> JsonResponse:
    try:
        club_line_report(line_id=line_id, user=request.user)
    except ClubError as err:
        return JsonResponse(err.as_json(), status=400)
    return JsonResponse({"message": _("Thank you: the staff will read it.")})
