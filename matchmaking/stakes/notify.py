"""The stake lobby's pages are nudged through this one function (after commit)."""

from __future__ import annotations

from realtime import outbox

STAKES_GROUP = "stakes.lobby"


def stakes_changed() -> None:
    """Tell every open stake lobby that its tables changed; each page fetches its
    own state once (``/play/stakes/state.json``), as its player sees it."""
    outbox.notify([(STAKES_GROUP, {"type": "stakes.changed"})])
