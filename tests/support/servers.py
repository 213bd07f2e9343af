"""Start the platform's own processes on this machine: integration tests and benchmarks.

``daphne_start``, ``uvicorn_start`` and ``celery_worker_start`` launch the real
servers (``other_server_start`` the other ASGI servers the benchmarks
compare) as subprocesses with a given environment (so they can point at
a test database), wait until they answer, and return a handle whose ``stop()`` ends
them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ASGI_APP = "config.asgi:application"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """Die at once, as a crash would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()


def _spawn(
    args: list[str], env: dict[str, str], log: Path | None
) -> subprocess.Popen[bytes]:
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - lives with proc
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def daphne_start(
    env: dict[str, str],
    *,
    port: int | None = None,
    log: Path | None = None,
    timeout: float = 60,
    app: str = ASGI_APP,
) -> Server:
    """A daphne process serving ``app``; returns once ``/healthz`` answers."""
    port = port or free_port()
    proc = _spawn(
        [
            sys.executable,
            "-m",
            "config.serve",  # daphne with the platform's frame cap
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            app,
        ],
        env,
        log,
    )
    return _serving(Server(proc, port), "daphne", timeout)


def uvicorn_start(
    env: dict[str, str],
    *,
    port: int | None = None,
    log: Path | None = None,
    timeout: float = 60,
    app: str = ASGI_APP,
    ws: str = "websockets",
    options: Sequence[str] = (),
) -> Server:
    """A uvicorn process serving ``app`` with its WebSocket implementation ``ws``
    and ``options`` added; returns once ``/healthz`` answers. Without lifespan
    events: Channels' router refuses them, and ``config.asgi`` needs none."""
    port = port or free_port()
    proc = _spawn(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--ws",
            ws,
            "--lifespan",
            "off",
            "--no-access-log",
            "--log-level",
            "warning",
            *options,
            app,
        ],
        env,
        log,
    )
    return _serving(Server(proc, port), "uvicorn", timeout)


# The command lines of the other ASGI servers ``bench/floor.py`` measures, before
# the port and the application: granian's ASGI interface without lifespan events
# (Channels' router refuses them), one worker each, on uvloop.
OTHER_SERVERS = {
    "granian": "--interface asginl --workers 1 --loop uvloop --log-level warning",
    "hypercorn": "--worker-class uvloop --workers 1",
}


def other_server_start(
    kind: str,
    env: dict[str, str],
    *,
    port: int | None = None,
    log: Path | None = None,
    timeout: float = 60,
    app: str = ASGI_APP,
) -> Server:
    """A granian or hypercorn process (``kind``) serving ``app``."""
    port = port or free_port()
    argv = [str(BIN / kind), *OTHER_SERVERS[kind].split()]
    if kind == "granian":
        argv += ["--host", "127.0.0.1", "--port", str(port)]
    else:
        argv += ["--bind", f"127.0.0.1:{port}"]
    proc = _spawn([*argv, app], env, log)
    return _serving(Server(proc, port), kind, timeout)


def _serving(server: Server, name: str, timeout: float) -> Server:
    """``server`` once its ``/healthz`` answers; stopped, and an error, if it exits
    or stays silent for ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if server.proc.poll() is not None:
            raise RuntimeError(f"{name} exited with {server.proc.returncode}")
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2):
                return server
        except OSError as exc:
            # 503 still means it serves; HTTPError is an OSError with a code.
            if getattr(exc, "code", None) == 503:
                return server
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"{name} did not come up") from exc
            time.sleep(0.2)


def celery_worker_start(
    env: dict[str, str],
    *,
    name: str,
    concurrency: int = 2,
    log: Path | None = None,
    timeout: float = 60,
) -> Server:
    """A ``celery worker`` process; returns once it answers a ping."""
    proc = _spawn(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--pool=threads",
            f"--concurrency={concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            "-n",
            f"{name}@localhost",
        ],
        env,
        log,
    )
    probe = subprocess.run(
        [sys.executable, "-c", _PING.format(name=name, timeout=timeout)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        Server(proc).stop()
        raise RuntimeError(
            f"celery worker {name} did not come up: {probe.stderr[-500:]!r}"
        )
    return Server(proc)


_PING = """
import time
from config.celery import app
deadline = time.monotonic() + {timeout}
while not app.control.ping(destination=["{name}@localhost"], timeout=0.5):
    if time.monotonic() > deadline:
        raise SystemExit(1)
"""
