"""``{% load events %}``: the next events on the home page and the lobby.

The pages belong to apps below ``tournaments`` (accounts, matchmaking), which may
not import it; the project's own tag library, like ``share``, brings the events in.
"""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.upcoming import next_events as upcoming

register = template.Library()  # the ``events`` library (settings.TEMPLATES)


@register.inclusion_tag("tournaments/_next.html")
def next_events() -> dict[str, Any]:
    return {"events": upcoming(limit=3)}
