"""The wire counters of bench/wire.py: whole messages only, however the bytes arrive."""

from __future__ import annotations

import struct

from bench.wire import PgWire, RedisWire


def _pg(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("!i", len(body) + 4) + body


def _startup() -> bytes:
    body = struct.pack("!i", 196608) + b"user\0postgres\0\0"
    return struct.pack("!i", len(body) + 4) + body


def _feed(proxy: PgWire | RedisWire, data: bytes, *, step: int) -> None:
    """Feed ``data`` to one connection's parser ``step`` bytes at a time."""
    buffer, state = bytearray(), {}
    for at in range(0, len(data), step):
        buffer += data[at : at + step]
        del buffer[: proxy._parse(buffer, state)]
    assert not buffer, "every message was consumed"


def test_pg_counts_statements_and_round_trips_across_split_chunks():
    ssl = struct.pack("!ii", 8, 80877103)
    data = (
        ssl
        + _startup()
        + _pg(b"Q", b"BEGIN\0")
        + _pg(b"P", b"\0SELECT $1\0\0\0")
        + _pg(b"B", b"\0\0\0\0\0\0\0\0")
        + _pg(b"E", b"\0\0\0\0\0")
        + _pg(b"S", b"")
        + _pg(b"Q", b"COMMIT\0")
    )
    for step in (1, 3, len(data)):
        proxy = PgWire(port=1)
        _feed(proxy, data, step=step)
        counts = proxy.snapshot()
        assert counts.statements == 3  # BEGIN, the Execute, COMMIT
        assert counts.round_trips == 3  # two simple queries and one Sync
        assert counts.texts == ["BEGIN", "SELECT $1", "COMMIT"]


def test_pg_since_gives_only_the_new_messages():
    proxy = PgWire(port=1)
    _feed(proxy, _startup() + _pg(b"Q", b"SELECT 1\0"), step=7)
    before = proxy.snapshot()
    _feed(proxy, _startup() + _pg(b"Q", b"BEGIN\0"), step=7)
    delta = proxy.since(before)
    assert delta.statements == 1
    assert delta.texts == ["BEGIN"]


def test_redis_counts_each_command_of_a_pipeline_and_inline_commands():
    pipeline = b"*1\r\n$5\r\nMULTI\r\n*3\r\n$3\r\nset\r\n$1\r\nk\r\n$2\r\n10\r\n"
    pipeline += b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$4\r\nEXEC\r\nPING\r\n"
    for step in (1, 5, len(pipeline)):
        proxy = RedisWire(port=1)
        _feed(proxy, pipeline, step=step)
        counts = proxy.snapshot()
        assert counts.commands == {"MULTI": 1, "SET": 1, "GET": 1, "EXEC": 1, "PING": 1}
        assert counts.total == 5
