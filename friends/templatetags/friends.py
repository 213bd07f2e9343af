"""Friends on pages: ``{% friend_button player %}`` (add, answer, or the standing
between the viewer and ``player``) for profiles, rooms and result screens, and
``{% head_to_head_section player %}`` for profiles."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django import template
from django.contrib.auth import get_user_model

from friends.selectors import friend_ids, friendship_state, request_received_from
from games.head_to_head import Record, head_to_head, recent_opponents

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


@register.inclusion_tag("friends/_head_to_head.html", takes_context=True)
def head_to_head_section(context: dict[str, Any], player: Any) -> dict[str, Any]:
    """On one's own profile: the record against each friend and recent opponent;
    on someone else's: the viewer's record against them."""
    viewer = context.get("user")
    if viewer is None or not viewer.is_authenticated:
        return {"rows": []}
    if viewer.pk != player.pk:
        record = head_to_head(user_id=viewer.pk, other_ids=[player.pk]).get(player.pk)
        return {"own": False, "player": player, "record": record, "rows": []}
    ids = list(
        dict.fromkeys([*friend_ids(player.pk), *recent_opponents(user_id=player.pk)])
    )
    records = head_to_head(user_id=player.pk, other_ids=ids)
    names = dict(
        get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    )
    friends = set(friend_ids(player.pk))
    rows = [
        {
            "name": names[uid],
            "record": records.get(uid, Record()),
            "friend": uid in friends,
        }
        for uid in ids
        if uid in names
    ]
    return {"own": True, "player": player, "rows": rows}
