"""The base of the platform's WebSocket consumers."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class SocketConsumer(AsyncWebsocketConsumer):
    """An ``AsyncWebsocketConsumer`` whose event loop never touches the database.

    Channels' ``dispatch`` runs ``close_old_connections`` before every message, in a
    hop to its single sync thread and back: for each frame from the browser and each
    pushed move. Our consumers do database work only through ``database_call`` (or
    ``database_sync_to_async``), which checks the connection of its own thread before
    and after each call, so the hop is skipped here (it was ~5% of a daphne process's
    time at 100 busy tables, bench/RESULTS.md).
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
