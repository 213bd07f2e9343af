"""The API's NDJSON streams: one JSON object a line, an empty line to keep alive.

``/api/games/<id>/stream`` joins the seat's own channel group, exactly like the
table socket (``games.consumers``): first the seat's full state, then each state
the outbox sends that seat, in ``seq`` order, each once. A frame that arrives
ahead of a missing one waits ``GAP_WAIT``; then the stream reads the full state
again (a socket's client would send ``sync``). It ends after the state that shows
the game ended. ``/api/stream/events`` is the account's events (``api.events``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

from api.auth import PLAY, limit_key, request_token, stream_close, stream_open
from api.endpoints import method_refused
from api.errors import refusal_response
from api.events import Seen, events_poll
from api.table import player_frame, seat_of
from core.refusals import Refusal
from games.groups import seat_subject, table_group
from games.presence import seat_socket_renew
from games.services import seat_presence
from realtime.consumers import GAP_WAIT
from realtime.db import database_call
from realtime.outbox import FRAMES_TYPE

NDJSON = "application/x-ndjson"
ENDED = ("finished", "cancelled")
EVENTS_POLL_SECONDS = 1.0


def _line(frame: dict[str, Any]) -> str:
    return json.dumps(frame) + "\n"


def _ended(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "state" and frame["table"]["status"] in ENDED


def _response(lines: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    # nginx would otherwise hold the lines back in its buffer.
    response["X-Accel-Buffering"] = "no"
    return response


async def _reader(
    layer: Any, channel: str, inbox: asyncio.Queue[dict[str, Any]]
) -> None:
    while True:
        await inbox.put(await layer.receive(channel))


async def _game_lines(
    *, token_key: str, user: User, table_id: int, position: int
) -> AsyncIterator[str]:
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is not configured"
    channel = await layer.new_channel("api.")
    group = table_group(table_id)
    subject = seat_subject(position)
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    reader = asyncio.ensure_future(_reader(layer, channel, inbox))
    keepalive = settings.API_KEEPALIVE_SECONDS
    try:
        # Joined before the state is read: no change falls between the two.
        await layer.group_add(group, channel)
        await database_call(seat_presence)(
            table_id=table_id, user=user, connected=True, socket=channel
        )
        frame = await database_call(player_frame)(table_id=table_id, user=user)
        seq: int = frame["seq"]
        yield _line(frame)
        if _ended(frame):
            return
        ahead: dict[int, str] = {}
        gap_until: float | None = None
        quiet_until = time.monotonic() + keepalive
        while True:
            now = time.monotonic()
            until = quiet_until if gap_until is None else min(quiet_until, gap_until)
            try:
                message = await asyncio.wait_for(inbox.get(), max(0.0, until - now))
            except TimeoutError:
                now = time.monotonic()
                if gap_until is not None and now >= gap_until:
                    # The missing frame did not come: the whole state instead.
                    gap_until = None
                    frame = await database_call(player_frame)(
                        table_id=table_id, user=user
                    )
                    if frame["seq"] > seq:
                        seq = frame["seq"]
                        ahead = {s: t for s, t in ahead.items() if s > seq}
                        yield _line(frame)
                        quiet_until = time.monotonic() + keepalive
                        if _ended(frame):
                            return
                if now >= quiet_until:
                    yield "\n"
                    quiet_until = time.monotonic() + keepalive
                    await seat_socket_renew(
                        table_id=table_id, user_id=user.pk, socket=channel
                    )
                continue
            if message.get("type") != FRAMES_TYPE or message["seq"] <= seq:
                continue  # spectator counts, or a state sent already
            text = message["texts"].get(subject)
            if text is None:
                continue  # a commit with nothing for this seat
            ahead[message["seq"]] = text
            while seq + 1 in ahead:
                seq += 1
                text = ahead.pop(seq)
                yield text + "\n"
                quiet_until = time.monotonic() + keepalive
                if _ended(json.loads(text)):
                    return
            gap_until = (time.monotonic() + GAP_WAIT) if ahead else None
    finally:
        reader.cancel()
        await database_call(stream_close)(token_key)
        await layer.group_discard(group, channel)
        await database_call(seat_presence)(
            table_id=table_id, user=user, connected=False, socket=channel
        )


@csrf_exempt
async def game_stream(request: HttpRequest, table_id: int) -> HttpResponseBase:
    """``GET /api/games/<id>/stream``: every state of the player's own seat."""
    if request.method != "GET":
        return method_refused(["GET"])
    try:
        token = await database_call(request_token)(request, PLAY)
        position = await database_call(seat_of)(table_id=table_id, user=token.owner)
        await database_call(stream_open)(limit_key(token))
    except Refusal as refusal:
        return refusal_response(refusal)
    return _response(
        _game_lines(
            token_key=limit_key(token),
            user=token.owner,
            table_id=table_id,
            position=position,
        )
    )


async def _event_lines(*, token_key: str, user: User) -> AsyncIterator[str]:
    seen = Seen()
    keepalive = settings.API_KEEPALIVE_SECONDS
    quiet_until = time.monotonic() + keepalive
    try:
        while True:
            for event in await database_call(events_poll)(user=user, seen=seen):
                yield _line(event)
                quiet_until = time.monotonic() + keepalive
            if time.monotonic() >= quiet_until:
                yield "\n"
                quiet_until = time.monotonic() + keepalive
            await asyncio.sleep(EVENTS_POLL_SECONDS)
    finally:
        await database_call(stream_close)(token_key)


@csrf_exempt
async def event_stream(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/stream/events``: the account's challenges and games."""
    if request.method != "GET":
        return method_refused(["GET"])
    try:
        token = await database_call(request_token)(request, PLAY)
        await database_call(stream_open)(limit_key(token))
    except Refusal as refusal:
        return refusal_response(refusal)
    return _response(_event_lines(token_key=limit_key(token), user=token.owner))
