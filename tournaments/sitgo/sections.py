"""The sit-and-gos' part of the tournaments page (``tournaments.views.index``)."""

from __future__ import annotations

from typing import Any


def sitgo_index(user: Any) -> dict[str, Any]:
    """Context for ``tournaments/sitgo/_index.html``: the open sit-and-gos, the
    running ones and the player's history."""
    return {}
