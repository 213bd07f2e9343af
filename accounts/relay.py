"""Frames of the presence socket that belong to apps above accounts.

Every signed-in page holds the presence socket, so an app that needs to hear from
any page (the quick chat of tables and rooms) registers a handler for its frame
type here, in its ``AppConfig.ready``, instead of opening a socket of its own.
A handler runs off the event loop (it may use the database) with the player's id,
name and the frame, and returns a frame to answer with, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Handler = Callable[[int, str, dict[str, Any]], dict[str, Any] | None]

_handlers: dict[str, Handler] = {}


def relay_register(frame_type: str, handler: Handler) -> None:
    _handlers[frame_type] = handler


def relay_handler(frame_type: str) -> Handler | None:
    return _handlers.get(frame_type)
