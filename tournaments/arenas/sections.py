"""The arenas' part of the tournaments page (``tournaments.views.index``)."""

from __future__ import annotations

from typing import Any


def arenas_index(user: Any) -> dict[str, Any]:
    """Context for ``tournaments/arenas/_index.html``: the schedule, live and
    finished arenas and the player's history."""
    return {}
