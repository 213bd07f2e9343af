"""The floor of ``bench/floor.py``: a move delivered to a 4-seat table with nothing of
the platform in between, served as ``bench.floor_app:application``.

``/ws/tables/<id>/`` joins its socket to the group ``floor.<id>`` (the four sockets
of one "table"), then sends the ``state`` frame ``seq`` 0, ``turn`` 0. Each frame
``{"type": "act", "seq": S, "action": {"next": T, "bytes": B}}`` it receives becomes
one ``group_send`` to that group of the ``state`` frame ``seq`` S + 1, ``turn`` T,
serialised once and padded to B characters, which each member sends on as it is.
No user, no database, no checks, no rate limit: the ASGI server and the platform's
channel layer (``CHANNEL_LAYERS``, channels_redis pub/sub on the same Redis) are
all it costs. HTTP goes to Django, so ``/healthz`` answers as on the platform.
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi_app = get_asgi_application()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


def floor_frame(*, seq: int, turn: int, size: int) -> str:
    """The JSON text of a floor ``state`` frame, padded to ``size`` characters when
    its bare text is shorter. The ``table`` part is what a client reads of a real
    state to know that the table still plays."""
    frame = {
        "type": "state",
        "seq": seq,
        "turn": turn,
        "table": {"status": "playing"},
        "pad": "",
    }
    text = json.dumps(frame)
    missing = size - len(text)
    if missing <= 0:
        return text
    # "pad" is the last key: its empty string ends the text as '""}'.
    return text[:-2] + "x" * missing + text[-2:]


class FloorConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        # In the group before the handshake is answered: a client that saw its
        # socket open misses no frame of its table.
        self.group = f"floor.{self.scope['url_route']['kwargs']['table_id']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=floor_frame(seq=0, turn=0, size=0))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        frame = json.loads(text_data or "{}")
        action = frame["action"]
        text = floor_frame(
            seq=frame["seq"] + 1, turn=action["next"], size=action["bytes"]
        )
        await self.channel_layer.group_send(
            self.group, {"type": "floor.frame", "text": text}
        )

    async def floor_frame(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": URLRouter(
            [path("ws/tables/<int:table_id>/", FloorConsumer.as_asgi())]
        ),
    }
)
