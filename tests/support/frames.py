"""A table socket's frames read as the page reads them (``static/js/table/socket.js``):
a ``patch`` is applied to the state before it, so tests see whole ``state`` frames."""

from __future__ import annotations

from typing import Any

from games.patches import frame_patched


class TableFrames:
    """The latest ``state`` of one table socket, from its ``state`` and ``patch``
    frames in the order they arrive."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def read(self, frame: dict[str, Any]) -> dict[str, Any]:
        """The frame as a ``state`` if it is a patch (applied to the latest state,
        which it must name), else as it came; the latest state kept."""
        if frame.get("type") == "patch":
            assert self.state is not None, "a patch before any state"
            frame = frame_patched(self.state, frame)
        if frame.get("type") == "state" and (
            self.state is None or frame["seq"] >= self.state["seq"]
        ):
            self.state = frame
        return frame
