"""The navigation's count of open invitations."""

from __future__ import annotations

from django.http import HttpRequest

from matchmaking.rooms.selectors import invitation_count


def invitations(request: HttpRequest) -> dict[str, int]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"invitation_count": invitation_count(user=user)}
