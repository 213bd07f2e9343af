"""Benchmark of the open API beside the table socket, on the embedded default.

Starts one daphne on a fresh SQLite file (no DATABASE_URL/REDIS_URL: the in-memory
channel layer and the in-process worker), makes its players, tokens and session
cookies in the same file, and prints, side by side, medians over ``--moves``:

* a move's round trip: through the API, ``POST /api/games/<id>/move`` sent -> the
  seat's game stream (``/api/games/<id>/stream``) delivers the state with a greater
  ``seq``; through the socket, ``act`` sent -> the socket's next frame with a greater
  ``seq``. One practice table each (a ``slow`` medium computer, so that its reply is
  not in the window), the two measured in turn, move by move;
* game-stream throughput: two players' programs (``tools/example_bot.py``'s
  ``play_game``) playing whole matches against each other through the API for
  ``--seconds``: the stream lines delivered per second of wall time, and per CPU
  second of the daphne process (the figure for "events per second per process").

Not measured: PostgreSQL, Redis or several processes (the per-token limits then
live in Redis; the stream reads frames from the channel layer, which differs);
TLS or a proxy (nginx must not buffer the streams: ``X-Accel-Buffering: no``);
the event stream (``/api/stream/events`` polls once a second: its latency is up
to that second by design); the rate limit (raised out of the way here); the
client's own CPU, which runs beside the server on the same machine, as does
anything else the machine serves: figures from a shared machine are noisy.

    .venv/bin/python bench/api.py                 # --moves 40 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.api.live import Live, live_server  # noqa: E402


def _example_bot() -> Any:
    spec = importlib.util.spec_from_file_location(
        "example_bot", ROOT / "tools" / "example_bot.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


example_bot = _example_bot()


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def player(name: str) -> tuple[Any, str, str]:
    """A new player, their token's secret and a session cookie for the socket."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from api.tokens import token_create

    user = User.objects.create_user(name, password="a-Long-pass-42")
    _, secret = token_create(owner=user, name="bench", scopes=["read", "play"])
    client = Client()
    client.force_login(user)
    cookie_name = settings.SESSION_COOKIE_NAME
    return user, secret, f"{cookie_name}={client.cookies[cookie_name].value}"


def practice(client: Any) -> int:
    """A practice table made through the API, so that the server runs its jobs."""
    body = {
        "variant": "draw",
        "options": {"target": 250},
        "level": "medium",
        "speed": "slow",
    }
    return int(client.call("POST", "/api/practice", body)["game"])


class StreamSeat:
    """A seat followed through its game stream (a thread reading lines)."""

    def __init__(self, client: Any, table_id: int) -> None:
        self.client = client
        self.table_id = table_id
        self.latest: dict[str, Any] | None = None
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for frame in self.client.stream(f"/api/games/{self.table_id}/stream"):
            with self.changed:
                self.latest = frame
                self.changed.notify_all()

    def wait(self, test: Any, timeout: float = 30) -> dict[str, Any]:
        with self.changed:
            ok = self.changed.wait_for(
                lambda: self.latest is not None and test(self.latest), timeout
            )
            assert ok and self.latest is not None, "the stream fell silent"
            return self.latest


def _mine(frame: dict[str, Any]) -> bool:
    view = frame.get("view") or {}
    return bool(view.get("legal")) and frame["table"]["status"] == "playing"


def api_move(seat: StreamSeat) -> float:
    frame = seat.wait(_mine)
    seq = frame["seq"]
    action = example_bot.choose(frame["view"]["legal"])
    start = time.perf_counter()
    seat.client.call(
        "POST", f"/api/games/{seat.table_id}/move", {"seq": seq, "action": action}
    )
    seat.wait(lambda f: f["seq"] > seq)
    return time.perf_counter() - start


# Between two ``sync`` frames while waiting for the seat's turn: the table socket
# takes 10 frames a second (``games.consumers.ACTIONS_PER_SECOND``).
POLL_SECONDS = 0.2


class SocketSeat:
    """A seat followed through the table socket (full states: ``sync`` after each
    frame keeps the client simple; the timed frame is the first after ``act``)."""

    def __init__(self, url: str, cookie: str, table_id: int) -> None:
        self.url, self.cookie, self.table_id = url, cookie, table_id

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        port = urllib.parse.urlsplit(self.url).port
        self.ws = await connect(
            f"ws://127.0.0.1:{port}/ws/tables/{self.table_id}/",
            origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": self.cookie},
            compression=None,
            proxy=None,
        )
        # As the table page does: its client seed for the fair deal.
        await self.ws.send(json.dumps({"type": "seed", "seed": "bench"}))

    async def state(self) -> dict[str, Any]:
        """The current full state (a ``sync``, frames before its answer dropped; a
        ``sync`` refused over the socket's frame allowance is sent again)."""
        await self.ws.send(json.dumps({"type": "sync"}))
        while True:
            frame = json.loads(await self.ws.recv())
            if frame.get("type") == "state":
                return frame
            if frame.get("type") == "error":
                await asyncio.sleep(POLL_SECONDS)
                await self.ws.send(json.dumps({"type": "sync"}))

    async def move(self) -> float:
        frame = await self.state()
        while not _mine(frame):
            await asyncio.sleep(POLL_SECONDS)
            frame = await self.state()
        seq = frame["seq"]
        action = example_bot.choose(frame["view"]["legal"])
        start = time.perf_counter()
        await self.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
        while True:
            answer = json.loads(await self.ws.recv())
            if answer.get("type") in ("state", "patch") and answer["seq"] > seq:
                return time.perf_counter() - start
            if answer.get("type") == "error":
                raise RuntimeError(answer["message"])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def daphne_pid(port: int) -> int:
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
            if b"config.serve" in cmd and str(port).encode() in cmd:
                return int(entry.name)
    raise RuntimeError("no daphne process found")


def round_trips(live: Live, moves: int) -> tuple[list[float], list[float]]:
    _, secret, _ = player("bench_api")
    _, ws_secret, cookie = player("bench_ws")
    api_client = example_bot.Client(live.url, secret)
    seat = StreamSeat(api_client, practice(api_client))
    socket = SocketSeat(
        live.url, cookie, practice(example_bot.Client(live.url, ws_secret))
    )
    loop = asyncio.new_event_loop()
    loop.run_until_complete(socket.open())
    api, ws = [], []
    for _ in range(moves):
        api.append(api_move(seat))
        ws.append(loop.run_until_complete(socket.move()))
    loop.run_until_complete(socket.ws.close())
    loop.close()
    return api, ws


def throughput(live: Live, seconds: float, port: int) -> tuple[float, float, int]:
    """Stream lines a second (wall) and a daphne CPU second, matches played."""
    _, ana_secret, _ = player("bench_ana")
    _, ben_secret, _ = player("bench_ben")
    clients = [
        example_bot.Client(live.url, ana_secret),
        example_bot.Client(live.url, ben_secret),
    ]
    lines = [0]
    matches = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def play(client: Any, game: int) -> None:
        log: list[dict[str, Any]] = []
        example_bot.play_game(client, game, log)
        with lock:
            lines[0] += len(log)

    pid = daphne_pid(port)
    cpu_before, wall_before = cpu_seconds(pid), time.monotonic()
    while time.monotonic() < stop:
        sent = clients[0].call(
            "POST", "/api/challenge/bench_ben", {"variant": "draw", "seats": 2}
        )
        game = clients[1].call("POST", f"/api/challenge/{sent['challenge']}/accept")
        threads = [
            threading.Thread(target=play, args=(c, game["game"])) for c in clients
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        matches[0] += 1
    wall = time.monotonic() - wall_before
    cpu = cpu_seconds(pid) - cpu_before
    return lines[0] / wall, lines[0] / max(cpu, 1e-9), matches[0]


def main() -> None:
    if os.environ.get("BENCH_TRACE"):
        import faulthandler

        faulthandler.dump_traceback_later(float(os.environ["BENCH_TRACE"]), exit=True)
    parser = argparse.ArgumentParser(description="The API beside the table socket.")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    os.environ.setdefault("API_RATE", "1000")
    os.environ.setdefault("API_BURST", "1000")
    with tempfile.TemporaryDirectory() as tmp:
        server = live_server(Path(tmp))
        live = next(server)
        try:
            django_setup(live.env)
            port = int(urllib.parse.urlsplit(live.url).port or 0)
            api, ws = round_trips(live, args.moves)
            per_wall, per_cpu, matches = throughput(live, args.seconds, port)
        finally:
            with contextlib.suppress(StopIteration):
                next(server)
    ms = 1000
    print(
        f"move round trip, median of {args.moves} (ms): "
        f"API {statistics.median(api) * ms:.1f} (p90 "
        f"{statistics.quantiles(api, n=10)[-1] * ms:.1f}), "
        f"socket {statistics.median(ws) * ms:.1f} (p90 "
        f"{statistics.quantiles(ws, n=10)[-1] * ms:.1f})"
    )
    print(
        f"game streams: {per_wall:.0f} lines/s wall, {per_cpu:.0f} lines per "
        f"daphne CPU second, {matches} matches of two API players"
    )


if __name__ == "__main__":
    main()
