"""The arenas' part of the tournaments page (``tournaments.views.index``)."""

from __future__ import annotations

from tournaments.arenas.selectors import arenas_index

__all__ = ["arenas_index"]
