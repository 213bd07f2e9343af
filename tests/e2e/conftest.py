"""Browser tests: a real daphne on a fresh SQLite file, driven by Debian's Chromium.

See DESIGN.md's known traps: the server runs in a subprocess on the embedded default
(its own in-process worker moves the bots), without ``DATABASE_URL``/``REDIS_URL`` and
without ``DJANGO_ALLOW_ASYNC_UNSAFE``; Playwright's sync API leaves an event loop in
this process, so the flag is set here only. Nothing here touches the pytest database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import ARTIFACTS, CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
SERVER_STRIP = ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "ENV_FILE")


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            assert item.get_closest_marker("e2e"), f"{item.nodeid} must be marked e2e"


def _free_port() -> int:
    """``E2E_PORT`` when set (a machine shared by several runs gives each its own
    range), else any free port."""
    if os.environ.get("E2E_PORT"):
        return int(os.environ["E2E_PORT"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """daphne serving the site on a fresh SQLite file; its base URL."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    env = {k: v for k, v in os.environ.items() if k not in SERVER_STRIP}
    env.update(
        SQLITE_PATH=str(tmp / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        # Every test signs its players up from 127.0.0.1: more than allauth's 20 a
        # minute per address when the run is fast.
        SIGNUP_RATE_LIMIT="600/m/ip",
        # Every stake open to the players signed up here (stakes unlocked by play
        # are tested in tests/matchmaking/stakes/test_unlock.py).
        STAKES_UNLOCK="{}",
        # Static files as production serves them: hashed, compressed, the modules'
        # imports rewritten (config/storage.py), collected below.
        STATIC_MANIFEST="true",
        STATIC_ROOT=str(tmp / "static"),
    )
    python = str(ROOT / ".venv" / "bin" / "python")
    if not Path(python).exists():
        python = sys.executable
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [python, "manage.py", *command, "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=120,
        )
    port = _free_port()
    log = open(tmp / "daphne.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            python,
            "-m",
            "config.serve",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 40
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                raise RuntimeError(
                    "daphne did not start:\n" + (tmp / "daphne.log").read_text()
                ) from None
            time.sleep(0.2)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    # Only when a browser runs: the unit suite, which also loads this conftest,
    # keeps Django's async-safety checks.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "1"

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, live_url):
    """``new_page(width=1280, height=800, **options)``: a fresh context (no cookies)
    and page; ``options`` go to the context (``timezone_id="Asia/Kolkata"``)."""
    contexts = []

    def make(width: int = 1280, height: int = 800, **options: object):
        context = browser.new_context(
            base_url=live_url, viewport={"width": width, "height": height}, **options
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    errors: list[str] = []
    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
