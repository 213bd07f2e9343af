"""``{% friend_button player %}``: the friend action between the viewer and
``player`` (add, answer, or the standing), for profiles, rooms and result screens."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django import template

from friends.selectors import friendship_state, request_received_from

register = template.Library()


@register.inclusion_tag("friends/_button.html", takes_context=True)
def friend_button(context: dict[str, Any], player: Any) -> dict[str, Any]:
    viewer = context.get("user")
    request = context.get("request")
    if viewer is None or not viewer.is_authenticated or player is None:
        return {"state": "hidden"}
    state = friendship_state(user=viewer, other=player)
    received = (
        request_received_from(user=viewer, other=player)
        if state == "received"
        else None
    )
    return {
        "state": state,
        "player": player,
        "received": received,
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("friends/_button.html", takes_context=True)
def friend_button_id(
    context: dict[str, Any], user_id: int, username: str
) -> dict[str, Any]:
    """``friend_button`` for a player known by id and name (a room's seat list)."""
    return friend_button(context, SimpleNamespace(pk=user_id, username=username))
