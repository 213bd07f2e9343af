"""The offline practice game in headless Chromium: what it costs to get, how fast it
starts, and how long the computer thinks in the browser against the server.

    .venv/bin/python bench/offline.py [--port 8701] [--positions 40] [--runs 5]
                                      [--skip-page] [--show]

Serves the site on the embedded default (SQLite, a fresh file) with its static
files collected as production serves them (hashed, compressed), on daphne, and
drives Debian's Chromium:

1. **First visit** of ``/play/offline/`` in a fresh browser context: the bytes on
   the wire (bodies as sent plus headers; the worker's and the service worker's
   requests included) until the page can play offline (its engine loaded and,
   where the site has one, its service worker active), and the seconds from the
   navigation to the first move the person can make in a new game of Draw
   against one medium computer (goal: <= 12 MB).
2. **A later start from the cache, offline**: the same context, offline
   (``context.set_offline(True)``), reloads the page and starts a game: seconds to
   the first move (goal: <= 3 s).
3. **A computer's move**: positions where a computer decides (from whole matches
   of every variant played by medium bots), decided by each level in the
   browser's worker (Pyodide) and in this CPython process, as the server's bots
   decide (``hard`` at the machine speed each side measures): median and p95 ms.

Parts 1 and 2 run ``--runs`` times, each in a fresh browser context, and print
medians (and the slowest run). ``--skip-page`` runs part 3 only (it needs the
Pyodide runtime, not the page).

Not measured: a phone's CPU (the machine's own, no throttling), a real network's
latency and bandwidth (the server is on this machine), the browser's own start.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
WORKER = "/static/js/offline/worker.js"
PYODIDE = "/static/vendor/pyodide/pyodide.mjs"
PURE = "/static/offline/pure.zip"
LEVELS = ("easy", "medium", "hard")
GOAL_FIRST_BYTES = 12 * 1024 * 1024
GOAL_CACHED_S = 3.0

# Start the worker in a page, as static/js/offline/main.js does, and call it.
BOOT = """async ({worker, pyodide, pure}) => {
  const w = new Worker(worker, {type: "module"});
  let next = 1;
  const waiting = new Map();
  w.onmessage = (e) => {
    const {id, ok, result, error} = e.data;
    const p = waiting.get(id);
    waiting.delete(id);
    ok ? p.resolve(result) : p.reject(new Error(error));
  };
  window.benchCall = (op, args) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, {resolve, reject});
    w.postMessage({id, op, args});
  });
  return await window.benchCall("init", {pyodide, pure});
}"""

# The person may move: the engine's last answer waits for them, with legal moves.
PERSON_TO_MOVE = """() => {
  const s = window.dominoOffline && window.dominoOffline.state();
  return !!s && s.computer === null && !s.over && (s.frame.view.legal || []).length > 0;
}"""


def serve(port: int) -> tuple[Any, str]:
    """daphne on a fresh SQLite file with the static files collected; (server, url)."""
    from tests.support.servers import daphne_start

    tmp = Path(tempfile.mkdtemp(prefix="offline-bench-"))
    strip = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "ENV_FILE"}
    env = {k: v for k, v in os.environ.items() if k not in strip}
    env.update(
        SQLITE_PATH=str(tmp / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        LOG_LEVEL="WARNING",
        STATIC_MANIFEST="true",
        STATIC_ROOT=str(tmp / "static"),
    )
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    server = daphne_start(env, port=port, log=tmp / "daphne.log")
    return server, server.url


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    )


def page_start_game(page: Any) -> float:
    """Start Draw against one medium computer at once; seconds to the first move."""
    began = time.perf_counter()
    page.wait_for_function("() => !document.getElementById('offline-start').disabled")
    page.select_option("select[name=variant]", "draw")
    page.select_option("select[name=seats]", "2")
    page.select_option("select[name=bot_1]", "medium")
    page.select_option("select[name=bot_speed]", "instant")
    page.click("#offline-start")
    page.wait_for_function(PERSON_TO_MOVE, timeout=60_000)
    return time.perf_counter() - began


def part_page(browser: Any, url: str, *, show: bool = False) -> dict[str, Any]:
    context = browser.new_context(base_url=url)
    wire: list[int] = []
    listed: list[tuple[int, str, str]] = []

    def finished(request: Any) -> None:
        size = request.sizes()
        if size["responseBodySize"] >= 0:  # negative: answered from a cache
            wire.append(size["responseBodySize"] + size["responseHeadersSize"])
            response = request.response()
            encoding = (response and response.headers.get("content-encoding")) or "-"
            listed.append((wire[-1], encoding, request.url))

    context.on("requestfinished", finished)
    page = context.new_page()
    began = time.perf_counter()
    reply = page.goto("/play/offline/")
    if reply is None or reply.status != 200:
        raise SystemExit(f"/play/offline/ answered {reply and reply.status}")
    to_move = page_start_game(page)
    first_move_s = time.perf_counter() - began
    # Offline-ready: the service worker (where the site has one) active and idle.
    page.evaluate(
        """async () => {
          if (!navigator.serviceWorker) return;
          const known = await navigator.serviceWorker.getRegistration();
          if (known) await navigator.serviceWorker.ready;
        }"""
    )
    page.wait_for_load_state("networkidle")
    time.sleep(1.0)
    first_bytes = sum(wire)
    requests = len(wire)
    context.set_offline(True)
    began = time.perf_counter()
    page.reload()
    page.evaluate("() => window.dominoOffline.booted")
    # The game in progress is resumed by the reload: leave it for a new one.
    page.evaluate(
        """() => {
          if (!document.getElementById('table-app').hidden) {
            window.confirm = () => true;
            document.getElementById('leave').click();
          }
        }"""
    )
    page.wait_for_selector("#offline-setup", state="visible")
    offline_s = page_start_game(page)
    cached_total_s = time.perf_counter() - began
    context.close()
    if show:
        for size, encoding, address in sorted(listed, reverse=True)[:25]:
            print(f"    {size / 1024:>8.1f} KB  {encoding:<5} {urlsplit(address).path}")
    return {
        "first_bytes": first_bytes,
        "first_requests": requests,
        "first_move_s": first_move_s,
        "first_game_s": to_move,
        "cached_game_s": offline_s,
        "cached_total_s": cached_total_s,
    }


def positions(count: int) -> list[dict[str, Any]]:
    """Positions where a computer decides with a choice, from medium-bot matches of
    every variant, spread over the variants."""
    from games import bots, engine

    rng = random.Random(46)
    per_variant = max(1, count // len(engine.VARIANTS))
    out: list[dict[str, Any]] = []
    for variant in engine.VARIANTS:
        found: list[dict[str, Any]] = []
        state = engine.new_match(engine.options_for(variant), 46)
        while not engine.is_match_over(state) and len(found) < per_variant * 3:
            seat = engine.current_seat(state)
            if seat is None:
                state = engine.apply(state, 0, engine.Action.next_hand())
                continue
            legal = engine.legal_actions(state, seat)
            if len([a for a in legal if a.type == "play"]) >= 2:
                found.append(
                    {"state": engine.to_json(state), "seat": seat, "rng": len(found)}
                )
            choice = bots.choose("medium", engine.view(state, seat), legal, rng)
            state = engine.apply(state, seat, choice or legal[0])
        out += rng.sample(found, min(per_variant, len(found)))
    return out


def cpython_ms(items: list[dict[str, Any]], level: str, speed: float) -> list[float]:
    from games import bots, engine

    out = []
    for item in items:
        state = engine.from_json(item["state"])
        seat = item["seat"]
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        rng = random.Random(item["rng"])
        began = time.perf_counter()
        bots.choose(level, view, legal, rng, machine_speed=speed)
        out.append((time.perf_counter() - began) * 1000)
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def part_bots(browser: Any, url: str, count: int) -> dict[str, Any]:
    from games.bots.hard.machine import measure_speed

    items = positions(count)
    context = browser.new_context(base_url=url)
    page = context.new_page()
    page.goto("/rules/")
    loaded = page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    browser_speed = page.evaluate("() => window.benchCall('speed', {})")
    server_speed = measure_speed()
    rows = {}
    for level in LEVELS:
        there = page.evaluate(
            "(a) => window.benchCall('timings', a)",
            {"positions": [{**item, "level": level} for item in items]},
        )
        here = cpython_ms(items, level, server_speed if level == "hard" else 1.0)
        rows[level] = (there, here)
    context.close()
    return {
        "positions": len(items),
        "pyodide_s": loaded["seconds"],
        "browser_speed": browser_speed,
        "server_speed": server_speed,
        "rows": rows,
    }


def report_page(runs: list[dict[str, Any]]) -> None:
    """Medians over the runs, the slowest run in brackets."""

    def mid(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    def top(key: str) -> float:
        return max(run[key] for run in runs)

    mb = mid("first_bytes") / 1024 / 1024
    print(f"parts 1 and 2: medians over {len(runs)} runs (slowest in brackets)")
    print(
        f"first visit: {mb:.2f} MB on the wire in {mid('first_requests'):.0f} "
        f"requests (goal <= {GOAL_FIRST_BYTES / 1024 / 1024:.0f} MB); first move "
        f"{mid('first_move_s'):.2f} s after the navigation [{top('first_move_s'):.2f}]"
        f" ({mid('first_game_s'):.2f} s from the page to the move)"
    )
    print(
        f"later start, offline, from the cache: first move "
        f"{mid('cached_game_s'):.2f} s after the form; opening the page to the "
        f"first move {mid('cached_total_s'):.2f} s [{top('cached_total_s'):.2f}] "
        f"(goal <= {GOAL_CACHED_S:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8701, help="daphne's port")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5, help="runs of parts 1 and 2")
    parser.add_argument("--skip-page", action="store_true")
    parser.add_argument(
        "--show", action="store_true", help="list the first visit's largest responses"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server, url = serve(args.port)
    try:
        with sync_playwright() as p:
            browser = launch(p)
            if not args.skip_page:
                runs = [
                    part_page(browser, url, show=args.show and i == 0)
                    for i in range(max(1, args.runs))
                ]
                report_page(runs)
            bots = part_bots(browser, url, args.positions)
            browser.close()
    finally:
        server.stop()
    print(
        f"computer moves over {bots['positions']} positions (Pyodide loaded in "
        f"{bots['pyodide_s']:.2f} s; hard's machine speed: browser "
        f"{bots['browser_speed']:.2f}, server {bots['server_speed']:.2f}):"
    )
    print(
        f"{'level':<8} {'browser median':>15} {'p95':>8} "
        f"{'server median':>14} {'p95':>8}"
    )
    for level, (there, here) in bots["rows"].items():
        print(
            f"{level:<8} {statistics.median(there):>12.1f} ms {p95(there):>5.1f} ms "
            f"{statistics.median(here):>11.1f} ms {p95(here):>5.1f} ms"
        )


if __name__ == "__main__":
    main()
