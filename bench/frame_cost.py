"""What a move's frames cost in CPU: built once per seat by the writer, then
made a patch once per socket by the consumer.

    nice .venv/bin/python bench/frame_cost.py [--db move_bench] [--tables 3]

Plays tables of people to their end through the services (no sockets, no worker,
nothing sent: the outbox's ``post`` is replaced by a recorder), on PostgreSQL, with
spectators watching so their frames are built too: a 2-seat ``draw`` and a 4-seat
partnership ``all_fives`` table each time. Then, under the same interpreter, it
times every recorded move again, in CPU time:

* build: ``games.payloads.table_frames`` and one ``json.dumps`` per frame (what the
  outbox serialises), as each move does it;
* patch: what ``games.consumers.TableConsumer.outbox_send`` does for one socket of
  each group: parse the frame, ``games.patches.frame_patch`` against the socket's
  last state, serialise the patch.

Also printed: the bytes a socket keeps for its last state (``tracemalloc`` of one
parsed frame). Run it under ``nice`` on a quiet machine; the figures are per move,
all groups of the table together.

Not measured:

* wall-clock time, and the CPU of any other process: no socket, channel layer,
  Redis or worker takes part in the timed replay;
* sending: the channel layer's publish, the WebSocket framing, permessage-deflate;
  and the patch of every socket of a group but one (each of them makes its own);
* the rest of a move: the services' transitions and their SQL (played once,
  untimed, to record the frames);
* tables other than a 2-seat ``draw`` and a 4-seat partnership ``all_fives``;
* a socket's memory beyond one parsed frame (its buffers, the frame text).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack import database_ensure, server_env  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/5"
RUNS = 5


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _record(tables: int, seed: int) -> list[dict[str, Any]]:
    """Play ``tables`` pairs of tables; each move's ``table_frames`` arguments."""
    from django.contrib.auth import get_user_model

    from games.services import seat_join, table_create, table_start, transitions
    from games.spectators import watched_mark
    from realtime import outbox
    from tests.support.tables import drive

    calls: list[dict[str, Any]] = []
    build = transitions.table_frames

    def recording(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return build(**kwargs)

    transitions.table_frames = recording  # type: ignore[assignment]
    transitions.tick_job = lambda *args, **kwargs: None  # type: ignore[assignment]
    outbox.post = lambda **kwargs: None  # type: ignore[assignment]
    users = get_user_model().objects
    rng = random.Random(seed)
    for n in range(tables):
        for variant, options in (
            ("draw", {"seats": 2, "target": 100}),
            ("all_fives", {"seats": 4, "partnership": True, "target": 100}),
        ):
            people = {
                i: users.get_or_create(username=f"fc-{n}-{variant}-{i}")[0]
                for i in range(options["seats"])
            }
            table = table_create(
                mode="online", variant=variant, options=options, hand_pause_seconds=0
            )
            for user in people.values():
                seat_join(table_id=table.pk, user=user)
            table_start(table_id=table.pk)
            watched_mark(table.pk)
            drive(table.pk, people, rng=rng)
    transitions.table_frames = build  # type: ignore[assignment]
    return calls


Texts = list[list[tuple[str, str]]]  # each move's (group, frame text)


def _time_build(calls: list[dict[str, Any]]) -> tuple[Texts, float]:
    """Each move's frame texts, and the CPU seconds of building them all."""
    from games.payloads import table_frames

    texts = []
    start = time.process_time()
    for kwargs in calls:
        frames = table_frames(**kwargs)
        texts.append([(group, json.dumps(frame)) for group, frame in frames])
    return texts, time.process_time() - start


def _time_patches(texts: Texts) -> tuple[float, int, int]:
    """CPU seconds of one socket per group patching every move; the frames that had
    a state before them, and how many of them went as patches."""
    from games.patches import frame_patch

    shown: dict[str, dict[str, Any]] = {}
    based = sent = 0
    start = time.process_time()
    for move in texts:
        for group, text in move:
            frame = json.loads(text)
            base, shown[group] = shown.get(group), frame
            if base is not None:
                patch = json.dumps(frame_patch(base, frame))
                based += 1
                sent += len(patch) < len(text)
    return time.process_time() - start, based, sent


def _kept_bytes(text: str) -> int:
    tracemalloc.start()
    kept = json.loads(text)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del kept
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="move_bench")
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = server_env(
        database_url=f"postgres://postgres@127.0.0.1:5432/{args.db}",
        redis_url=REDIS_URL,
    )
    database_ensure(args.db, env)
    _django(env)
    calls = _record(args.tables, args.seed)
    moves = len(calls)
    builds, patches = [], []
    for _ in range(RUNS):
        texts, built = _time_build(calls)
        patched, based, sent = _time_patches(texts)
        builds.append(built)
        patches.append(patched)
    frames = sum(len(move) for move in texts)
    build_us = statistics.median(builds) / moves * 1e6
    patch_us = statistics.median(patches) / moves * 1e6
    print(f"{moves} moves, {frames} frames ({frames / moves:.1f} a move), {RUNS} runs")
    print(f"  build per move (all groups): {build_us:.0f} us")
    print(
        f"  patch per move (one socket a group): {patch_us:.0f} us "
        f"({patch_us / build_us:.0%} of the build), "
        f"{sent / based:.0%} sent as patches"
    )
    kept = statistics.median(_kept_bytes(t) for move in texts for _g, t in move)
    print(f"  a socket's last state kept: {kept / 1024:.1f} KiB (median)")


if __name__ == "__main__":
    main()
