"""The navigation's count of friend requests waiting for the player's answer."""

from __future__ import annotations

from django.http import HttpRequest

from friends.models import FriendRequest


def requests(request: HttpRequest) -> dict[str, int]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    waiting = FriendRequest.objects.filter(
        recipient=user, status=FriendRequest.Status.PENDING
    ).count()
    return {"friend_request_count": waiting}
