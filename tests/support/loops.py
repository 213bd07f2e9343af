"""An event loop running in a thread of its own, as a server process's would."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loop_thread() -> Iterator[asyncio.AbstractEventLoop]:
    """A loop running in a daemon thread until the block ends."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
