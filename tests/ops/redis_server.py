"""A private ``redis-server`` on a spare port, to stop and start at will (the fault
tests and ``bench/chaos.py``; never the machine's Redis)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.support.servers import free_port


class RedisServer:
    """``start()`` it on its port, ``kill()`` it as a crash would, ``start()`` again
    (empty: nothing is saved, as after a restart without persistence)."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        log = open(self.workdir / f"redis-{self.port}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None
