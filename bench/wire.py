"""Count what crosses the wire: a PostgreSQL-protocol proxy and a Redis-protocol proxy.

Benchmarks count statements and commands here, where they happen, not from Django's
query log (which misses ``CONN_HEALTH_CHECKS``' ``SELECT 1``, psycopg's own
``BEGIN``, and anything not sent through a Django cursor).

    with django_wired() as pg:        # Django's connection goes through a proxy
        before = pg.snapshot()
        ...                          # the work to count
        print(pg.since(before).statements)

A statement is a simple ``Query`` message or an extended-protocol ``Execute``; a round
trip is a ``Query`` or a ``Sync`` (each waits for the server's ReadyForQuery). Only
what clients send is parsed; what servers answer passes through untouched. The
PostgreSQL proxy cannot read TLS: connect with ``sslmode=disable`` (``wire_database``
does). A Redis command is one RESP array (a pipeline of ten is ten commands).

Not measured: time spent in the proxies (they add a hop to every round trip, so no
benchmark times anything through them).
"""

from __future__ import annotations

import asyncio
import struct
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

# PostgreSQL startup-phase request codes, sent without a message type byte.
_SSL_REQUEST = 80877103
_GSSENC_REQUEST = 80877104


@dataclass
class PgCounts:
    """Frontend messages by type, and the text of each simple query and Parse with
    the number of the client connection that sent it (1 for the proxy's first)."""

    messages: Counter[str] = field(default_factory=Counter)
    texts: list[str] = field(default_factory=list)
    connections: list[int] = field(default_factory=list)

    @property
    def statements(self) -> int:
        return self.messages["Q"] + self.messages["E"]

    @property
    def round_trips(self) -> int:
        return self.messages["Q"] + self.messages["S"]


@dataclass
class RedisCounts:
    """Commands by name (upper case), and the channel of each ``PUBLISH``."""

    commands: Counter[str] = field(default_factory=Counter)
    published: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.commands.values())


class _Proxy:
    """A TCP proxy on 127.0.0.1 that parses the client's half of each connection."""

    def __init__(self, *, port: int, host: str = "127.0.0.1") -> None:
        self.target = (host, port)
        self.port = 0
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Any:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    async def _close(self) -> None:
        self._server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0)
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _serve(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)

        async def pump(
            src: asyncio.StreamReader, dst: asyncio.StreamWriter, parse: bool
        ) -> None:
            buffer = bytearray()
            try:
                while chunk := await src.read(65536):
                    if parse:
                        buffer += chunk
                        with self._lock:
                            consumed = self._parse(buffer, state)
                        del buffer[:consumed]
                    dst.write(chunk)
                    await dst.drain()
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                dst.close()

        state: dict[str, Any] = {}
        try:
            await asyncio.gather(
                pump(reader, up_writer, True), pump(up_reader, writer, False)
            )
        except asyncio.CancelledError:  # the proxy is closing
            writer.close()
            up_writer.close()

    def _parse(self, buffer: bytearray, state: dict[str, Any]) -> int:
        """Count the whole messages at the start of ``buffer`` (``state`` is the
        connection's own, empty at first); return the bytes used."""
        raise NotImplementedError


class PgWire(_Proxy):
    """A PostgreSQL-protocol proxy counting frontend messages."""

    def __init__(self, *, port: int = 5432, host: str = "127.0.0.1") -> None:
        super().__init__(port=port, host=host)
        self.counts = PgCounts()
        self._connections = 0

    def _parse(self, buffer: bytearray, state: dict[str, Any]) -> int:
        used = 0
        while True:
            if not state.get("started"):
                if len(buffer) - used < 8:
                    return used
                length, code = struct.unpack_from("!ii", buffer, used)
                if len(buffer) - used < length:
                    return used
                used += length
                # After an SSL or GSS request the client sends the real startup.
                state["started"] = code not in (_SSL_REQUEST, _GSSENC_REQUEST)
                if state["started"]:
                    self._connections += 1
                    state["connection"] = self._connections
                continue
            if len(buffer) - used < 5:
                return used
            kind = chr(buffer[used])
            (length,) = struct.unpack_from("!i", buffer, used + 1)
            if len(buffer) - used < 1 + length:
                return used
            body = bytes(buffer[used + 5 : used + 1 + length])
            self.counts.messages[kind] += 1
            if kind in ("Q", "P"):
                # A Parse has the statement's name first, then the query text.
                text = body.split(b"\0")[0 if kind == "Q" else 1].decode()
                self.counts.texts.append(text)
                self.counts.connections.append(state["connection"])
            used += 1 + length

    def snapshot(self) -> PgCounts:
        with self._lock:
            return PgCounts(
                Counter(self.counts.messages),
                list(self.counts.texts),
                list(self.counts.connections),
            )

    def since(self, before: PgCounts) -> PgCounts:
        now = self.snapshot()
        start = len(before.texts)
        return PgCounts(
            now.messages - before.messages, now.texts[start:], now.connections[start:]
        )


class RedisWire(_Proxy):
    """A Redis-protocol (RESP) proxy counting commands by name."""

    def __init__(self, *, port: int = 6379, host: str = "127.0.0.1") -> None:
        super().__init__(port=port, host=host)
        self.counts = RedisCounts()

    def _parse(self, buffer: bytearray, state: dict[str, Any]) -> int:
        used = 0
        while used < len(buffer):
            if buffer[used : used + 1] != b"*":  # an inline command: one line
                end = buffer.find(b"\r\n", used)
                if end < 0:
                    return used
                words = bytes(buffer[used:end]).split()
                if words:
                    self.counts.commands[words[0].decode().upper()] += 1
                used = end + 2
                continue
            parsed = _resp_array(buffer, used)
            if parsed is None:
                return used
            name, first, used = parsed
            self.counts.commands[name] += 1
            if name == "PUBLISH":
                self.counts.published[first] += 1
        return used

    def snapshot(self) -> RedisCounts:
        with self._lock:
            return RedisCounts(
                Counter(self.counts.commands), Counter(self.counts.published)
            )

    def since(self, before: RedisCounts) -> RedisCounts:
        now = self.snapshot()
        return RedisCounts(
            now.commands - before.commands, now.published - before.published
        )


def _resp_array(buffer: bytearray, start: int) -> tuple[str, str, int] | None:
    """The command name of the RESP array at ``start``, its first argument (empty if
    none) and where it ends, or None if the array is not all in ``buffer`` yet."""
    end = buffer.find(b"\r\n", start)
    if end < 0:
        return None
    items = int(buffer[start + 1 : end])
    at, name, first = end + 2, "", ""
    for i in range(items):
        end = buffer.find(b"\r\n", at)
        if end < 0:
            return None
        size = int(buffer[at + 1 : end])
        if len(buffer) < end + 2 + size + 2:
            return None
        if i == 0:
            name = bytes(buffer[end + 2 : end + 2 + size]).decode().upper()
        elif i == 1:
            first = bytes(buffer[end + 2 : end + 2 + size]).decode(errors="replace")
        at = end + 2 + size + 2
    return name, first, at


def wire_database(pg: PgWire, alias: str = "default") -> None:
    """Send Django's ``alias`` connection through ``pg`` from its next query on."""
    from django.db import connections

    connection = connections[alias]
    connection.close()
    connection.settings_dict["HOST"] = "127.0.0.1"
    connection.settings_dict["PORT"] = str(pg.port)
    options = connection.settings_dict.setdefault("OPTIONS", {})
    options["sslmode"] = "disable"
    options["gssencmode"] = "disable"


@contextmanager
def django_wired(alias: str = "default") -> Iterator[PgWire]:
    """Run Django's ``alias`` connection through a new ``PgWire`` for the block.

    The connection is reopened through the proxy (its set-up statements are counted
    before the block's first snapshot, so take one after a first query) and restored
    afterwards.
    """
    from django.db import connections

    connection = connections[alias]
    saved = dict(connection.settings_dict)
    saved_options = dict(saved.get("OPTIONS") or {})
    target = (saved.get("HOST") or "127.0.0.1", int(saved.get("PORT") or 5432))
    with PgWire(host=target[0], port=target[1]) as pg:
        wire_database(pg, alias)
        try:
            connection.ensure_connection()
            yield pg
        finally:
            connection.close()
            connection.settings_dict.update(saved)
            connection.settings_dict["OPTIONS"] = saved_options
