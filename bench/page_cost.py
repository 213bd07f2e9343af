"""What a page costs a signed-in player: requests, bytes and SQL statements.

    .venv/bin/python bench/page_cost.py [--db page_bench] [--show]

Starts daphne on PostgreSQL + Redis (the distributed set-up) with static files
collected as production serves them (hashed, compressed), its database reached
through ``bench/wire.py``'s proxy. Headless Chromium opens each page twice in one
browser context: a first visit (empty cache) and a repeat visit (the browser's
cache warm). Per visit it prints the HTTP requests that reached the server (not
those the browser's cache answered), the bytes on the wire (bodies as sent,
compressed or not, plus headers), the WebSockets opened, and the SQL
statements the server sent while the page loaded and its sockets connected (until
the network has been idle for half a second, then one more second).

Goals (issue 32): a repeat visit to any page <= 3 requests and <= 8 statements; the
table page's first visit <= 60 KB on the wire.

Not measured: time (nothing here is timed; the proxy adds a hop); statements of
the timed jobs a page sets off (no worker or beat runs, so a practice table's
computer seats do not move); TLS and HTTP/2 (daphne serves HTTP/1.1 in the clear,
as behind a proxy).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack import database_ensure, server_env  # noqa: E402
from bench.wire import PgWire  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _player() -> tuple[str, int]:
    """A player's session cookie value and a practice table of theirs."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.services import table_practice_create

    user, _ = get_user_model().objects.get_or_create(
        username="pagebench", defaults={"email": "pagebench@example.invalid"}
    )
    client = Client()
    client.force_login(user)
    table = table_practice_create(
        user=user,
        variant="draw",
        options={"seats": 2, "target": 100},
        bot_levels=["easy"],
        bot_speed="normal",
    )
    return client.cookies[settings.SESSION_COOKIE_NAME].value, int(table.pk)


def _visit(page: Any, url: str, pg: PgWire) -> dict[str, Any]:
    sizes: list[tuple[int, int, str]] = []
    sockets: list[str] = []

    def finished(request: Any) -> None:
        size = request.sizes()
        # Chromium reports a response from its cache with a negative body size:
        # nothing crossed the wire.
        if size["responseBodySize"] >= 0:
            wire = size["responseBodySize"] + size["responseHeadersSize"]
            sizes.append((wire, size["responseHeadersSize"], request.url))

    page.on("requestfinished", finished)
    page.on("websocket", lambda ws: sockets.append(ws.url))
    before = pg.snapshot()
    page.goto(url, wait_until="networkidle")
    time.sleep(1.0)
    counts = pg.since(before)
    page.remove_listener("requestfinished", finished)
    return {
        "requests": len(sizes),
        "bytes": sum(wire for wire, _, _ in sizes),
        "responses": sorted(sizes, reverse=True),
        "sockets": sockets,
        "statements": counts.statements,
        "texts": list(zip(counts.connections, counts.texts, strict=True)),
    }


def _show(got: dict[str, Any]) -> None:
    """Each response by size (with its headers' share), the sockets, then each
    statement under the number of the database connection that sent it (one per
    request or socket connect, as ``CONN_MAX_AGE`` is 0)."""
    for wire, headers, url in got["responses"]:
        print(
            f"    {wire / 1024:>6.1f} KB ({headers:>4} B headers)  {urlsplit(url).path}"
        )
    for url in got["sockets"]:
        print(f"    socket     {urlsplit(url).path}")
    for connection, text in got["texts"]:
        print(f"    [{connection}] {' '.join(text.split())[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="page_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--prefix", default="dom_pagebench", help="DEPLOYMENT_PREFIX")
    parser.add_argument("--port", type=int, default=None, help="daphne's port")
    parser.add_argument(
        "--show",
        action="store_true",
        help="list each visit's responses by size, its sockets and its statements",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.support.servers import daphne_start

    direct = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    env = server_env(
        database_url=direct, redis_url=args.redis, DEPLOYMENT_PREFIX=args.prefix
    )
    database_ensure(args.db, env)
    _django(env)
    cookie, table_id = _player()
    static_root = tempfile.mkdtemp(prefix="page-bench-static-")
    served = {**env, "STATIC_MANIFEST": "true", "STATIC_ROOT": static_root}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=served,
        check=True,
    )
    pages = {
        "home": "/",
        "lobby": "/lobby/",
        "play form": "/play/",
        "table": f"/tables/{table_id}/",
        "league": "/league/",
        "wallet": "/wallet/",
    }
    with PgWire(port=5432) as pg:
        proxied = (
            f"postgres://postgres@127.0.0.1:{pg.port}/{args.db}"
            "?sslmode=disable&gssencmode=disable"
        )
        daphne = daphne_start({**served, "DATABASE_URL": proxied}, port=args.port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM,
                    args=[
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                    ],
                )
                print(
                    f"{'page':<10} {'visit':<7} {'requests':>8} {'KB':>7} "
                    f"{'sockets':>7} {'SQL':>5}"
                )
                for name, path in pages.items():
                    context = browser.new_context(base_url=daphne.url)
                    context.add_cookies(
                        [{"name": "sessionid", "value": cookie, "url": daphne.url}]
                    )
                    page = context.new_page()
                    for visit in ("first", "repeat"):
                        got = _visit(page, path, pg)
                        print(
                            f"{name:<10} {visit:<7} {got['requests']:>8} "
                            f"{got['bytes'] / 1024:>7.1f} {len(got['sockets']):>7} "
                            f"{got['statements']:>5}"
                        )
                        if args.show:
                            _show(got)
                    context.close()
                browser.close()
        finally:
            daphne.stop()


if __name__ == "__main__":
    main()
