"""Friend requests and friendships: every write, each under a lock on the two
players' rows so that two people answering or asking at once end in one state.

Refused, with nothing changed and words for the player: an unknown or inactive
name, oneself, someone already a friend or already asked, more than
``FRIEND_REQUESTS_PER_DAY`` requests in a day, and a player who blocked the sender
(refused in the words of an unknown name: a block is not revealed) or whom the
sender blocked. Asking someone who already asked you accepts their request.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from friends.errors import FriendError
from friends.models import FriendRequest, Friendship
from friends.notify import friend_request_push
from matchmaking.pools.conduct import block_exists

Pending = FriendRequest.Status.PENDING


def _lock_pair(a_id: int, b_id: int) -> None:
    """Take both players' rows in id order: one pair's writes queue."""
    list(
        get_user_model()
        .objects.select_for_update()
        .filter(pk__in=(a_id, b_id))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _pair(a_id: int, b_id: int) -> dict[str, int]:
    return {"low_id": min(a_id, b_id), "high_id": max(a_id, b_id)}


def are_friends(a_id: int, b_id: int) -> bool:
    return Friendship.objects.filter(**_pair(a_id, b_id)).exists()


def _unknown() -> FriendError:
    return FriendError("unknown", _("No player goes by that name."))


def _recipient(username: str) -> Any:
    name = (username or "").strip()
    if not name or len(name) > 150:
        raise FriendError("no_name", _("Type the name of the player to add."))
    found = (
        get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    )
    if found is None:
        raise _unknown()
    return found


def _befriend(a_id: int, b_id: int) -> Friendship:
    """Make two players friends and close every request still pending between them."""
    now = timezone.now()
    FriendRequest.objects.filter(
        sender_id__in=(a_id, b_id), recipient_id__in=(a_id, b_id), status=Pending
    ).update(status=FriendRequest.Status.ACCEPTED, answered_at=now)
    friendship, _created = Friendship.objects.get_or_create(
        low_id=min(a_id, b_id), high_id=max(a_id, b_id)
    )
    return friendship


@transaction.atomic
def friend_request_send(*, sender: Any, username: str) -> FriendRequest | Friendship:
    """Ask the player named ``username`` to be friends: the new request, or the
    friendship when they had asked first."""
    recipient = _recipient(username)
    if recipient.pk == sender.pk:
        raise FriendError("self", _("You cannot add yourself as a friend."))
    _lock_pair(sender.pk, recipient.pk)
    if block_exists(blocker_id=recipient.pk, blocked_id=sender.pk):
        raise _unknown()
    if block_exists(blocker_id=sender.pk, blocked_id=recipient.pk):
        raise FriendError("blocked", _("You blocked this player: unblock them first."))
    if are_friends(sender.pk, recipient.pk):
        raise FriendError("already", _("You are friends already."))
    if FriendRequest.objects.filter(
        sender=recipient, recipient=sender, status=Pending
    ).exists():
        return _befriend(sender.pk, recipient.pk)
    if FriendRequest.objects.filter(
        sender=sender, recipient=recipient, status=Pending
    ).exists():
        raise FriendError("pending", _("You asked already: wait for an answer."))
    since = timezone.now() - timedelta(days=1)
    sent = FriendRequest.objects.filter(sender=sender, created_at__gte=since).count()
    if sent >= settings.FRIEND_REQUESTS_PER_DAY:
        raise FriendError(
            "rate", _("You have sent as many friend requests as a day allows.")
        )
    request = FriendRequest.objects.create(sender=sender, recipient=recipient)
    name = sender.get_username()
    transaction.on_commit(
        lambda: friend_request_push(recipient_id=recipient.pk, sender=name)
    )
    return request


def _request_for(request_id: int, user: Any, *, as_recipient: bool) -> FriendRequest:
    gone = FriendError("gone", _("This request is no longer waiting for an answer."))
    found = FriendRequest.objects.filter(pk=request_id).first()
    if found is None:
        raise gone
    mine = found.recipient_id if as_recipient else found.sender_id
    if mine != user.pk:
        raise gone  # someone else's request: as if it did not exist
    _lock_pair(found.sender_id, found.recipient_id)
    found.refresh_from_db()
    if found.status != Pending:
        raise gone
    return found


@transaction.atomic
def friend_request_accept(*, request_id: int, user: Any) -> Friendship:
    request = _request_for(request_id, user, as_recipient=True)
    if block_exists(blocker_id=user.pk, blocked_id=request.sender_id):
        raise FriendError("blocked", _("You blocked this player: unblock them first."))
    return _befriend(request.sender_id, request.recipient_id)


def _answer(request: FriendRequest, status: str) -> None:
    request.status = status
    request.answered_at = timezone.now()
    request.save(update_fields=["status", "answered_at"])


@transaction.atomic
def friend_request_decline(*, request_id: int, user: Any) -> None:
    _answer(
        _request_for(request_id, user, as_recipient=True),
        FriendRequest.Status.DECLINED,
    )


@transaction.atomic
def friend_request_cancel(*, request_id: int, user: Any) -> None:
    _answer(
        _request_for(request_id, user, as_recipient=False),
        FriendRequest.Status.CANCELLED,
    )


@transaction.atomic
def friend_remove(*, user: Any, username: str) -> None:
    other = _recipient(username)
    _lock_pair(user.pk, other.pk)
    deleted, _rows = Friendship.objects.filter(**_pair(user.pk, other.pk)).delete()
    if not deleted:
        raise FriendError("not_friends", _("You are not friends with this player."))


def friendship_end(*, blocker_id: int, blocked_id: int) -> None:
    """A block ends the friendship and every pending request between the two."""
    with transaction.atomic():
        Friendship.objects.filter(**_pair(blocker_id, blocked_id)).delete()
        FriendRequest.objects.filter(
            sender_id__in=(blocker_id, blocked_id),
            recipient_id__in=(blocker_id, blocked_id),
            status=Pending,
        ).update(status=FriendRequest.Status.DECLINED, answered_at=timezone.now())
