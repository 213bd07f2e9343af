"""Clubs: every write. Each takes the player's row first, then the club's, so that
two people acting on one club (two joins past the last place, a leader leaving
while another is named) queue and end in one state.

Refused, with nothing changed and words for the player: a name that is taken,
too short or too long, passes itself off as the staff or holds a word the filter
masks (a description too: the same checks as a username's); a player in
``CLUBS_PER_PLAYER`` clubs already; more than ``CLUB_REQUESTS_PER_DAY`` requests to
join in 24 hours; a full club (``CLUB_MEMBERS_MAX``); a member acting as a leader;
the last leader leaving while others remain (they name another leader first); a
leader removing another leader (who steps down first). The last member leaving
closes the club.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.errors import ClubError
from clubs.models import DESCRIPTION_MAX, NAME_MAX, Club, JoinRequest, Member
from core.names import name_impersonates, name_offends

NAME_MIN = 3
# Besides letters, digits and their combining marks (any script: Devanagari's vowel
# signs, Thai's), spaces, these marks, and the joiners Persian and the Indic
# scripts write inside words.
_NAME_MARKS = frozenset(" .'&-_\u200c\u200d")


def _name_chars_ok(name: str) -> bool:
    return all(
        c in _NAME_MARKS or unicodedata.category(c)[0] in "LMN" for c in name
    ) and any(c.isalpha() for c in name)


Pending = JoinRequest.Status.PENDING
Leader = Member.Role.LEADER


def _lock_user(user_id: int) -> None:
    list(
        get_user_model()
        .objects.select_for_update()
        .filter(pk=user_id)
        .values_list("pk", flat=True)
    )


def _lock_club(slug: str) -> Club:
    club = Club.objects.select_for_update().filter(slug=slug).first()
    if club is None:
        raise ClubError("no_club", _("There is no such club."))
    return club


def _membership(club: Club, user_id: int) -> Member | None:
    return Member.objects.filter(club=club, user_id=user_id).first()


def _require_leader(club: Club, user_id: int) -> None:
    found = _membership(club, user_id)
    if found is None or found.role != Leader:
        raise ClubError("not_leader", _("Only the club's leaders may do that."))


def _require_room_for_player(user_id: int) -> None:
    limit = settings.CLUBS_PER_PLAYER
    if Member.objects.filter(user_id=user_id).count() >= limit:
        raise ClubError(
            "too_many_clubs",
            ngettext(
                "You may belong to at most %(n)s club; leave one first.",
                "You may belong to at most %(n)s clubs; leave one first.",
                limit,
            )
            % {"n": limit},
        )


def _require_room_in_club(club: Club) -> None:
    if Member.objects.filter(club=club).count() >= settings.CLUB_MEMBERS_MAX:
        raise ClubError("club_full", _("This club is full."))


def club_name_clean(raw: Any) -> str:
    """The name with its runs of spaces made one, or a refusal in words."""
    name = " ".join(raw.split()) if isinstance(raw, str) else ""
    if len(name) < NAME_MIN or len(name) > NAME_MAX:
        raise ClubError(
            "name_length",
            _("A club's name has %(min)s to %(max)s characters.")
            % {"min": NAME_MIN, "max": NAME_MAX},
        )
    if not _name_chars_ok(name):
        raise ClubError(
            "name_chars",
            _(
                "A club's name holds letters, digits, spaces and the marks "
                "' . & - _ only, with at least one letter."
            ),
        )
    if name_impersonates(name):
        raise ClubError(
            "name_staff", _("That name belongs to the site's staff; choose another.")
        )
    if name_offends(name):
        raise ClubError(
            "name_word",
            _("That name holds a word the site does not allow; choose another."),
        )
    return name


def club_description_clean(raw: Any) -> str:
    description = raw.strip() if isinstance(raw, str) else ""
    if len(description) > DESCRIPTION_MAX:
        raise ClubError(
            "description_length",
            ngettext(
                "A description is at most %(n)s character.",
                "A description is at most %(n)s characters.",
                DESCRIPTION_MAX,
            )
            % {"n": DESCRIPTION_MAX},
        )
    if name_impersonates(description):
        raise ClubError(
            "description_staff",
            _(
                "The description speaks as the site's staff (admin, moderator, "
                "official, support…): say it in the club's own words."
            ),
        )
    if name_offends(description):
        raise ClubError(
            "description_word",
            _("The description holds a word the site does not allow."),
        )
    return description


def _language(code: Any) -> str:
    codes = {c for c, _name in settings.LANGUAGES}
    if code not in codes:
        raise ClubError("language", _("Choose the language the club speaks."))
    return str(code)


def _slug_for(name: str) -> str:
    base = slugify(name)[:50].strip("-") or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(
    *, user: Any, name: Any, description: Any, language: Any, open: bool
) -> Club:
    """A new club with ``user`` as its leader."""
    name = club_name_clean(name)
    description = club_description_clean(description)
    language = _language(language)
    _lock_user(user.pk)
    _require_room_for_player(user.pk)
    if Club.objects.filter(name__iexact=name).exists():
        raise ClubError("name_taken", _("A club already goes by that name."))
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name,
                slug=_slug_for(name),
                description=description,
                language=language,
                open=bool(open),
                created_by=user,
            )
    except IntegrityError:
        raise ClubError("name_taken", _("A club already goes by that name.")) from None
    Member.objects.create(club=club, user=user, role=Leader)
    return club


@transaction.atomic
def club_edit(
    *, leader: Any, slug: str, description: Any, language: Any, open: bool
) -> Club:
    """A leader changes the description, the language or who may join."""
    club = _lock_club(slug)
    _require_leader(club, leader.pk)
    club.description = club_description_clean(description)
    club.language = _language(language)
    club.open = bool(open)
    club.save(update_fields=["description", "language", "open"])
    return club


@transaction.atomic
def club_join(*, user: Any, slug: str) -> Member | JoinRequest:
    """Join an open club at once; ask to join one that is not (a leader answers)."""
    _lock_user(user.pk)
    club = _lock_club(slug)
    if _membership(club, user.pk) is not None:
        raise ClubError("member", _("You are already in this club."))
    _require_room_for_player(user.pk)
    if club.open:
        _require_room_in_club(club)
        JoinRequest.objects.filter(club=club, user=user, status=Pending).update(
            status=JoinRequest.Status.ACCEPTED, answered_at=timezone.now()
        )
        return Member.objects.create(club=club, user=user)
    if JoinRequest.objects.filter(club=club, user=user, status=Pending).exists():
        raise ClubError("asked", _("You already asked to join; a leader will answer."))
    limit = settings.CLUB_REQUESTS_PER_DAY
    since = timezone.now() - timedelta(days=1)
    if JoinRequest.objects.filter(user=user, created_at__gte=since).count() >= limit:
        raise ClubError(
            "rate",
            ngettext(
                "You may ask to join %(n)s club a day; try again tomorrow.",
                "You may ask to join %(n)s clubs a day; try again tomorrow.",
                limit,
            )
            % {"n": limit},
        )
    return JoinRequest.objects.create(club=club, user=user)


def _pending_request(request_id: int) -> JoinRequest:
    found = JoinRequest.objects.filter(pk=request_id).select_related("club").first()
    if found is None:
        raise ClubError("no_request", _("There is no such request."))
    return found


@transaction.atomic
def join_request_cancel(*, user: Any, request_id: int) -> None:
    """The player withdraws their own pending request."""
    _lock_user(user.pk)
    found = _pending_request(request_id)
    if found.user_id != user.pk:
        raise ClubError("no_request", _("There is no such request."))
    changed = JoinRequest.objects.filter(pk=found.pk, status=Pending).update(
        status=JoinRequest.Status.CANCELLED, answered_at=timezone.now()
    )
    if not changed:
        raise ClubError("answered", _("That request was already answered."))


@transaction.atomic
def join_request_answer(*, leader: Any, request_id: int, accept: bool) -> None:
    """A leader accepts (the player becomes a member) or declines a request."""
    found = _pending_request(request_id)
    _lock_user(found.user_id)
    club = _lock_club(found.club.slug)
    _require_leader(club, leader.pk)
    request = JoinRequest.objects.select_for_update().get(pk=found.pk)
    if request.status != Pending:
        raise ClubError("answered", _("That request was already answered."))
    if accept:
        if _membership(club, request.user_id) is None:
            _require_room_for_player(request.user_id)
            _require_room_in_club(club)
            Member.objects.create(club=club, user_id=request.user_id)
        request.status = JoinRequest.Status.ACCEPTED
    else:
        request.status = JoinRequest.Status.DECLINED
    request.answered_at = timezone.now()
    request.save(update_fields=["status", "answered_at"])


@transaction.atomic
def club_leave(*, user: Any, slug: str) -> bool:
    """The player leaves; True when they were the last and the club is closed."""
    _lock_user(user.pk)
    club = _lock_club(slug)
    mine = _membership(club, user.pk)
    if mine is None:
        raise ClubError("not_member", _("You are not in this club."))
    others = Member.objects.filter(club=club).exclude(pk=mine.pk)
    if not others.exists():
        club.delete()
        return True
    if mine.role == Leader and not others.filter(role=Leader).exists():
        raise ClubError(
            "last_leader",
            _("You are the club's only leader: name another leader before you leave."),
        )
    mine.delete()
    return False


def _member_named(club: Club, username: Any) -> Member:
    found = (
        Member.objects.filter(club=club, user__username__iexact=str(username or ""))
        .select_related("user")
        .first()
    )
    if found is None:
        raise ClubError("no_member", _("No member of this club goes by that name."))
    return found


@transaction.atomic
def member_remove(*, leader: Any, slug: str, username: Any) -> None:
    """A leader removes a member (a leader steps down before being removed)."""
    club = _lock_club(slug)
    _require_leader(club, leader.pk)
    target = _member_named(club, username)
    if target.user_id == leader.pk:
        raise ClubError("self", _("To go, leave the club."))
    if target.role == Leader:
        raise ClubError(
            "remove_leader",
            _("A leader cannot be removed; they may step down themselves."),
        )
    target.delete()


@transaction.atomic
def leader_name(*, leader: Any, slug: str, username: Any) -> None:
    """A leader makes a member a leader too."""
    club = _lock_club(slug)
    _require_leader(club, leader.pk)
    target = _member_named(club, username)
    if target.role == Leader:
        raise ClubError("leader", _("That member is already a leader."))
    target.role = Leader
    target.save(update_fields=["role"])


@transaction.atomic
def leader_step_down(*, user: Any, slug: str) -> None:
    """A leader becomes a plain member, when another leader remains."""
    club = _lock_club(slug)
    _require_leader(club, user.pk)
    if Member.objects.filter(club=club, role=Leader).count() < 2:
        raise ClubError(
            "last_leader",
            _("You are the club's only leader: name another leader first."),
        )
    Member.objects.filter(club=club, user_id=user.pk).update(role=Member.Role.MEMBER)
