"""``/ws/tables/<id>/``: seated players act, anyone signed in may watch.

Thin: parse and size-check a frame, await one service call, answer errors. Every
table state reaches a connection as a numbered frame from ``realtime.outbox``
through the table's group, which carries each commit's frames once for every
connection, each taking its own seat's (or the spectators'), the acting
connection's own move included; ``connect`` and ``sync`` send the current state
directly. Each numbered state goes out as a ``patch`` against the last one this
connection was sent (``games.patches``), unless the patch would be longer. The
refusals, the catch-all and the ordering of numbered frames are
``realtime.consumers``'s.

A spectator is sent a state only when what they are shown changed: on a stake
table nothing at all while a hand is played (``games.spectators``), where a frame
per move, even an empty one, would tell them how many moves were made and when.
For the same reason their frames do not carry the table's ``seq``, which counts
the moves: each spectator connection numbers the states it sends 1, 2, 3…, and its
error frames carry that number too. See docs/protocol.md.
"""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from django.utils.translation import gettext

from accounts.bots import bot_socket_refuse
from games.errors import TableError
from games.groups import WATCH_SUBJECT, seat_subject, table_group
from games.patches import frame_patch, frame_same
from games.presence import seat_socket_renew
from games.selectors import table_frame, table_membership
from games.services import (
    seat_back,
    seat_presence,
    table_act,
    table_leave,
    table_seed,
)
from games.spectators import (
    spectator_join,
    spectator_leave,
    spectator_renew,
    spectators_count,
    watched_mark,
)
from realtime.consumers import SocketConsumer
from realtime.db import database_call
from realtime.frames import FrameError

ACTIONS_PER_SECOND = 10
ACTION_BURST = 20
# JSON without the spaces after separators: patches go out this way.
COMPACT = (",", ":")


class TableConsumer(SocketConsumer):
    where = "table"
    frames_per_second = ACTIONS_PER_SECOND
    frame_burst = ACTION_BURST
    frame_refusals = (TableError,)
    errors_numbered = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The last state frame this connection was sent, as its client parsed it:
        # what the next one is a patch against.
        self.shown: dict[str, Any] | None = None
        # A spectator's connection: states numbered by ``watch_seq``, the number of
        # the last one sent, rather than by the table's ``seq``.
        self.spectator = False
        self.watch_seq = 0

    async def connect(self) -> None:
        self.user = await self.player()
        if self.user is None:
            return
        if await bot_socket_refuse(self, user_id=self.user.pk):  # plays by the API
            return
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        try:
            self.position = await database_call(table_membership)(
                table_id=self.table_id, user=self.user
            )
        except TableError:
            await self.refuse(4404)
            return
        self.group = table_group(self.table_id)
        self.subject = (
            WATCH_SUBJECT if self.position is None else seat_subject(self.position)
        )
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.position is not None:
            await database_call(seat_presence)(
                table_id=self.table_id,
                user=self.user,
                connected=True,
                socket=self.channel_name,
            )
            await self._send_state()
            count = await sync_to_async(spectators_count, thread_sensitive=False)(
                self.table_id
            )
            if count:
                await self.send_json({"type": "watching", "count": count})
            return
        self.spectator = True
        # Before reading the state: every move from here on publishes to spectators.
        await database_call(watched_mark)(self.table_id)
        await self._send_state()
        changed, count = await sync_to_async(spectator_join, thread_sensitive=False)(
            table_id=self.table_id, user_id=self.user.pk, socket=self.channel_name
        )
        if changed:
            await self._watching_tell(count)
        else:
            await self.send_json({"type": "watching", "count": count})

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        finally:
            if self.position is not None:
                await database_call(seat_presence)(
                    table_id=self.table_id,
                    user=self.user,
                    connected=False,
                    socket=self.channel_name,
                )
            else:
                changed, count = await sync_to_async(
                    spectator_leave, thread_sensitive=False
                )(
                    table_id=self.table_id,
                    user_id=self.user.pk,
                    socket=self.channel_name,
                )
                if changed:
                    await self._watching_tell(count)

    async def _watching_tell(self, count: int) -> None:
        """Tell the players and the spectators how many people watch now."""
        message = {"type": "table.watching", "count": count}
        await self.channel_layer.group_send(table_group(self.table_id), message)

    async def table_watching(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "watching", "count": event["count"]})

    async def renew(self) -> None:
        if not hasattr(self, "group"):
            return
        if self.position is not None:
            await seat_socket_renew(
                table_id=self.table_id, user_id=self.user.pk, socket=self.channel_name
            )
        else:
            await sync_to_async(spectator_renew, thread_sensitive=False)(
                table_id=self.table_id, user_id=self.user.pk, socket=self.channel_name
            )
            await database_call(watched_mark)(self.table_id)

    async def frame_received(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "act":
            await self._act(frame)
        elif kind == "sync":
            await self._send_state()
        elif kind == "back":
            await database_call(seat_back)(table_id=self.table_id, user=self.user)
        elif kind == "leave":
            await database_call(table_leave)(table_id=self.table_id, user=self.user)
        elif kind == "seed":
            await self._seed(frame)
        else:
            await super().frame_received(frame)

    async def _act(self, frame: dict[str, Any]) -> None:
        seq, action = frame.get("seq"), frame.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise FrameError(
                "bad_frame", gettext('"act" needs the table "seq" you saw.')
            )
        if not isinstance(action, dict):
            raise FrameError("bad_frame", gettext('"act" needs an "action" object.'))
        seat = frame.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise FrameError("bad_frame", gettext('"seat" must be a number.'))
        # The new state comes back through the table's group, like everyone's.
        await database_call(table_act)(
            table_id=self.table_id,
            user=self.user,
            action=action,
            expected_seq=seq,
            claimed_seat=seat,
        )

    async def _seed(self, frame: dict[str, Any]) -> None:
        seed = frame.get("seed")
        if not isinstance(seed, str):
            raise FrameError("bad_frame", gettext('"seed" needs a "seed" string.'))
        seat = frame.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise FrameError("bad_frame", gettext('"seat" must be a number.'))
        await database_call(table_seed)(
            table_id=self.table_id, user=self.user, seed=seed, claimed_seat=seat
        )

    async def send_json(self, data: dict[str, Any]) -> None:
        if self.spectator and "seq" in data:
            data = {**data, "seq": self.watch_seq}  # never the table's own
        await super().send_json(data)

    async def _send_state(self) -> None:
        frame = await database_call(table_frame)(
            table_id=self.table_id, position=self.position
        )
        if self.spectator:
            await self._spectator_state(frame, reply=True)
            return
        self.seq_seen(frame["seq"])
        text = json.dumps(frame)
        # The client keeps the newer of two frames (a reply to ``sync`` may be
        # older than a frame it already has).
        if self.shown is None or frame["seq"] >= self.shown["seq"]:
            self.shown = json.loads(text)
        await self.send(text_data=text)

    async def outbox_send(self, text: str) -> None:
        """A table's next state, as a patch against the last one sent unless the
        patch would be longer."""
        frame = json.loads(text)
        if frame.get("type") == "state" and self.spectator:
            await self._spectator_state(frame, reply=False)
            return
        if frame.get("type") == "state":
            base, self.shown = self.shown, frame
            if base is not None:
                patch = json.dumps(frame_patch(base, frame), separators=COMPACT)
                if len(patch) < len(text):
                    text = patch
        await self.send(text_data=text)

    async def _spectator_state(self, frame: dict[str, Any], *, reply: bool) -> None:
        """Send a spectator ``frame`` (numbered by the table) if it shows them
        something new, numbered by this connection: a patch of the last one unless
        that would be longer, or whole in a ``reply`` (connect, ``sync``), which
        repeats the last state sent when nothing changed (or when the state read
        is older than what this connection was already sent)."""
        base = self.shown
        older = frame["seq"] < self.seq
        self.seq_seen(frame["seq"])
        if base is not None and (older or frame_same(base, frame)):
            if reply:  # told already: without the events that came with it
                await self.send(text_data=json.dumps({**base, "events": []}))
            return
        self.watch_seq += 1
        frame = {**frame, "seq": self.watch_seq}
        self.shown = frame
        text = json.dumps(frame)
        if base is not None and not reply:
            patch = json.dumps(frame_patch(base, frame), separators=COMPACT)
            if len(patch) < len(text):
                text = patch
        await self.send(text_data=text)
