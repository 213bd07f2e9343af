"""Soak of the embedded default (``make run``) on a busy machine.

Starts ``config.serve`` on its own SQLite file and port, with no ``DATABASE_URL`` or
``REDIS_URL`` (SQLite, the in-memory channel layer, the in-process worker and beat),
and a CPU hog on every core. Then 20 simulated people, for ``--minutes`` (10): each
signs up over HTTP (the real allauth form) and holds a presence socket. Six of them,
in pairs, play each other in friend rooms (the host creates a room through its
form, the guest joins by the share link, the host starts). The others in turn play
a practice table against the computer (created through the practice form, every
other one with a ``hard`` computer), or search in the lobby socket for a ranked
table and play it (backfilled with simulated players after a wait). Each table is
played for at most ``TABLE_SECONDS``, a random legal action when it is theirs.

It prints:

* player-visible errors: ``error`` frames with code ``internal``, sockets that failed
  to open or closed with a code other than 1000/1001, sign-ups that failed, searches
  never seated, rooms that could not be created, joined or started;
* HTTP 500s;
* "database is locked" lines in the server's log;
* the longest write stall: a probe in this process writes one row in its own
  ``BEGIN IMMEDIATE`` transaction every half second on the same database file; the
  longest such write is the longest time the server's writers could have waited.

What it does not measure: stake tables (not simulated), browsers
(the pages' JavaScript, static files), more than one server process, PostgreSQL
or Redis, move latency percentiles (``bench/ws_load.py``), and refusals a fast
client provokes itself (``stale_seq``, ``not_your_turn``), which are counted apart.

    .venv/bin/python bench/embedded_soak.py --minutes 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html.parser
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.patches import frame_patched  # noqa: E402
from realtime.deltas import DeltaError  # noqa: E402

PEOPLE = 20
FRIEND_PAIRS = 3  # six of the people play each other in friend rooms
PORT = 18431
TABLE_SECONDS = 90.0
SEAT_WAIT_SECONDS = 90.0
PROBE_EVERY = 0.5
POOL = "draw-2"
BENIGN = {"stale_seq", "not_your_turn", "not_playing", "rate_limited"}


class Tally:
    def __init__(self) -> None:
        self.errors: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.http: Counter[int] = Counter()
        self.moves = 0
        self.tables = 0
        self.rooms = 0
        self.longest_write = 0.0


class FormFields(html.parser.HTMLParser):
    """The default values of a page's form fields (inputs and selects)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.options: dict[str, list[str]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("name") and a.get("type") != "checkbox":
            self.values.setdefault(a["name"], a.get("value", ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select:
            self.options.setdefault(self._select, []).append(a.get("value", ""))
            if "selected" in a or self._select not in self.values:
                self.values[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


class Person:
    def __init__(self, n: int, base: str, tally: Tally, end: float) -> None:
        self.name = f"soak{n}x{random.randrange(10**6)}"
        self.n = n
        self.base = base
        self.tally = tally
        self.end = end
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar)
        )

    # --- HTTP, in a thread (urllib blocks)

    def _request(self, path: str, data: dict[str, str] | None = None) -> str:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body)
        req.add_header("Referer", self.base + path)
        try:
            with self.opener.open(req, timeout=60) as resp:
                self.tally.http[resp.status] += 1
                return str(resp.geturl()) + "\n" + resp.read().decode()
        except urllib.error.HTTPError as exc:
            self.tally.http[exc.code] += 1
            if exc.code >= 500:
                self.tally.errors[f"http {exc.code} {path}"] += 1
            return ""

    async def request(self, path: str, data: dict[str, str] | None = None) -> str:
        return await asyncio.to_thread(self._request, path, data)

    async def form_post(self, path: str, extra: dict[str, str]) -> tuple[str, str]:
        page = await self.request(path)
        fields = FormFields()
        fields.feed(page)
        answer = await self.request(path, {**fields.values, **extra})
        return answer.split("\n", 1)[0], answer

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    # --- sockets

    async def socket(self, path: str) -> Any:
        url = self.base.replace("http", "ws", 1) + path
        try:
            return await websockets.connect(
                url,
                additional_headers={"Origin": self.base, "Cookie": self.cookie()},
                open_timeout=30,
            )
        except Exception as exc:
            self.tally.errors[f"socket {path.split('/')[2]} did not open: {exc!r}"] += 1
            return None

    def frame(self, where: str, m: dict[str, Any]) -> None:
        if m.get("type") != "error":
            return
        code = str(m.get("code"))
        if code in BENIGN:
            self.tally.refusals[code] += 1
        else:
            self.tally.errors[f"{where} error {code}"] += 1

    def closed(self, where: str, exc: Exception) -> None:
        code = getattr(getattr(exc, "rcvd", None), "code", None)
        if code not in (1000, 1001):
            self.tally.errors[f"{where} closed {code}"] += 1

    async def presence(self) -> None:
        ws = await self.socket("/ws/presence/")
        if ws is None:
            return
        try:
            while time.monotonic() < self.end:
                await ws.send(json.dumps({"type": "ping"}))
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(30):
                        while True:
                            self.frame("presence", json.loads(await ws.recv()))
        except websockets.ConnectionClosed as exc:
            self.closed("presence", exc)
        finally:
            await ws.close()

    async def play(self, table_url: str) -> None:
        table_id = re.search(r"/tables/(\d+)/", table_url)
        if not table_id:
            self.tally.errors[f"no table page: {table_url[:60]}"] += 1
            return
        ws = await self.socket(f"/ws/tables/{table_id.group(1)}/")
        if ws is None:
            return
        self.tally.tables += 1
        stop = min(self.end, time.monotonic() + TABLE_SECONDS)
        shown: dict[str, Any] = {}
        try:
            while time.monotonic() < stop:
                try:
                    async with asyncio.timeout(max(0.1, stop - time.monotonic())):
                        m = json.loads(await ws.recv())
                except TimeoutError:
                    break
                self.frame("table", m)
                if m.get("type") == "patch":
                    try:  # the state it stands for, as the page does
                        m = frame_patched(shown, m)
                    except DeltaError:
                        self.tally.errors["a patch of another state"] += 1
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                if m.get("type") != "state":
                    continue
                shown = m
                if m["table"]["status"] != "playing":
                    break
                legal = (m.get("view") or {}).get("legal") or []
                if legal:
                    await asyncio.sleep(random.uniform(0.3, 1.5))
                    action = random.choice(legal)
                    await ws.send(
                        json.dumps({"type": "act", "seq": m["seq"], "action": action})
                    )
                    self.tally.moves += 1
        except websockets.ConnectionClosed as exc:
            self.closed("table", exc)
        finally:
            await ws.close()

    async def practice(self) -> None:
        page = await self.request("/play/")
        fields = FormFields()
        fields.feed(page)
        extra = {"bot_speed": "fast"}
        if "target" in fields.options:
            extra["target"] = min(fields.options["target"], key=int)
        if self.n % 2 and "bot_1" in fields.values:
            extra["bot_1"] = "hard"
        answer = await self.request("/play/", {**fields.values, **extra})
        await self.play(answer.split("\n", 1)[0])

    async def ranked(self) -> None:
        ws = await self.socket("/ws/lobby/")
        if ws is None:
            return
        url = ""
        try:
            await ws.send(json.dumps({"type": "search", "pool": POOL}))
            async with asyncio.timeout(SEAT_WAIT_SECONDS):
                while not url:
                    m = json.loads(await ws.recv())
                    self.frame("lobby", m)
                    if m.get("type") == "seated":
                        url = m["url"]
                    elif m.get("type") == "state" and m.get("seated"):
                        url = f"/tables/{m['seated']}/"
        except TimeoutError:
            self.tally.errors["search never seated"] += 1
        except websockets.ConnectionClosed as exc:
            self.closed("lobby", exc)
        finally:
            await ws.close()
        if url:
            await self.play(url)

    async def signup(self) -> bool:
        """Sign up through the form (arrivals spread over half a minute)."""
        await asyncio.sleep(self.n * 1.5)
        email = f"{self.name}@example.com"
        password = "soak-Pass-1234"
        landed, _ = await self.form_post(
            "/accounts/signup/",
            {
                "username": self.name,
                "email": email,
                "password1": password,
                "password2": password,
            },
        )
        if "/accounts/signup/" in landed:
            self.tally.errors["sign-up refused"] += 1
            return False
        return True

    async def post_from(self, page: str, action: str, extra: dict[str, str]) -> str:
        """Submit a form of ``page`` (its fields, the CSRF token) to ``action``;
        return the URL landed on."""
        fields = FormFields()
        fields.feed(await self.request(page))
        answer = await self.request(action, {**fields.values, **extra})
        return answer.split("\n", 1)[0]

    async def live(self) -> None:
        if not await self.signup():
            return
        presence = asyncio.create_task(self.presence())
        turn = 0
        while time.monotonic() < self.end:
            await (self.practice() if turn % 2 == 0 else self.ranked())
            await self.request("/")
            turn += 1
        await presence


async def friends(host: Person, guest: Person) -> None:
    """Two people in friend rooms, again and again: the host creates a room of two
    seats, the guest joins by its link, the host starts and both play."""
    signed = await asyncio.gather(host.signup(), guest.signup())
    if not all(signed):
        return
    presences = [asyncio.create_task(p.presence()) for p in (host, guest)]
    tally = host.tally
    while time.monotonic() < host.end:
        page = await host.request("/rooms/new/")
        fields = FormFields()
        fields.feed(page)
        extra = {"seats": "2", "host_seat": "1", "bot_level": "easy"}
        if "target" in fields.options:
            extra["target"] = min(fields.options["target"], key=int)
        answer = await host.request("/rooms/new/", {**fields.values, **extra})
        landed, body = answer.split("\n", 1) if answer else ("", "")
        room = re.search(r"/rooms/(\d+)/$", landed)
        link = re.search(r"/rooms/join/([\w-]+)/", body)
        if not room or not link:
            tally.errors["room not created"] += 1
            return
        room_path = f"/rooms/{room.group(1)}/"
        join = f"/rooms/join/{link.group(1)}/"
        if await guest.post_from(join, join, {}) != host.base + room_path:
            tally.errors["room link did not seat the guest"] += 1
            return
        table_url = await host.post_from(room_path, f"{room_path}start/", {})
        if "/tables/" not in table_url:
            tally.errors["room did not start"] += 1
            return
        tally.rooms += 1
        await asyncio.gather(host.play(table_url), guest.play(table_url))
    await asyncio.gather(*presences)


def probe(database: str, tally: Tally, stop: threading.Event) -> None:
    """Write one row every ``PROBE_EVERY``; keep the longest write."""
    db = sqlite3.connect(database, timeout=60, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS soak_probe (at REAL)")
    while not stop.wait(PROBE_EVERY):
        began = time.monotonic()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO soak_probe VALUES (?)", (time.time(),))
        db.execute("COMMIT")
        tally.longest_write = max(tally.longest_write, time.monotonic() - began)
    db.close()


def hogs() -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]


def server_start(work: Path, port: int) -> tuple[subprocess.Popen[bytes], Path]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(SQLITE_PATH=str(work / "soak.sqlite3"), EMBEDDED_WORKER="1")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    log = work / "server.log"
    args = ["-m", "config.serve", "-b", "127.0.0.1", "-p", str(port)]
    proc = subprocess.Popen(
        [python, *args, "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    for _ in range(300):
        health = f"http://127.0.0.1:{port}/healthz"
        with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=2):
            return proc, log
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise SystemExit(f"the server did not come up: see {log}")


async def people(base: str, tally: Tally, minutes: float) -> None:
    """``PEOPLE`` people: ``FRIEND_PAIRS`` pairs in friend rooms, the others
    alternating practice tables and ranked searches."""
    end = time.monotonic() + minutes * 60
    persons = [Person(n, base, tally, end) for n in range(PEOPLE)]
    pairs = [friends(persons[2 * i], persons[2 * i + 1]) for i in range(FRIEND_PAIRS)]
    alone = [p.live() for p in persons[2 * FRIEND_PAIRS :]]
    await asyncio.gather(*pairs, *alone)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=PORT)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="embedded-soak-"))
    server, log = server_start(work, args.port)
    tally = Tally()
    stop = threading.Event()
    prober = threading.Thread(
        target=probe, args=(str(work / "soak.sqlite3"), tally, stop), daemon=True
    )
    busy = hogs()
    prober.start()
    began = time.monotonic()
    try:
        asyncio.run(people(f"http://127.0.0.1:{args.port}", tally, args.minutes))
    finally:
        stop.set()
        for hog in busy:
            hog.kill()
        os.killpg(server.pid, signal.SIGTERM)
        stopped = time.monotonic()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        stop_seconds = time.monotonic() - stopped
    text = log.read_text(errors="replace")
    locked = text.count("database is locked")
    errors = sum(tally.errors.values())
    print(
        f"soak: {PEOPLE} people, {(stopped - began) / 60:.1f} min, hog on "
        f"{len(busy)} cores, log {log}"
    )
    print(
        f"tables played {tally.tables} (friend rooms {tally.rooms}), moves sent "
        f"{tally.moves}, "
        f"HTTP {dict(sorted(tally.http.items()))}"
    )
    print(f"player-visible errors: {errors} {dict(tally.errors)}")
    print(f"HTTP 500s: {tally.http[500]}")
    print(f'"database is locked" log lines: {locked}')
    print(f"longest write stall: {tally.longest_write:.2f} s")
    print(f"refusals a fast client provoked (not errors): {dict(tally.refusals)}")
    print(f"SIGTERM to exit: {stop_seconds:.1f} s")


if __name__ == "__main__":
    main()
