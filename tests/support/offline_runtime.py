"""A stand-in for the offline game's runtime (Pyodide's core files and the pure
packages' zip), for tests of the pages and the service worker that offer it: the
real one is fetched by an install step the test run may not have made."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.test import override_settings

FILES = {
    "vendor/pyodide/pyodide.mjs": "export const loadPyodide = null;\n",
    "vendor/pyodide/pyodide.asm.js": "// the runtime\n",
    "vendor/pyodide/pyodide.asm.wasm": "wasm",
    "vendor/pyodide/python_stdlib.zip": "zip",
    "vendor/pyodide/pyodide-lock.json": "{}",
    "offline/pure.zip": "zip",
    # The client's scripts, where the checkout has none yet (the real ones win).
    "js/offline/main.js": 'import { start } from "./worker-client.js";\nstart();\n',
    "js/offline/worker-client.js": "export function start() {}\n",
    "js/offline/worker.js": "// the worker\n",
}


@contextmanager
def offline_runtime(folder: Path) -> Iterator[Path]:
    """Serve the stand-in runtime from ``folder``, behind the site's own static
    folder (whose files win where both have one)."""
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    with override_settings(STATICFILES_DIRS=[*settings.STATICFILES_DIRS, folder]):
        yield folder


@contextmanager
def no_offline_runtime(folder: Path) -> Iterator[None]:
    """As a checkout that never fetched the runtime: the site's static folders
    without the runtime's (links to everything else), and nothing collected."""
    roots = []
    for index, source in enumerate(Path(d) for d in settings.STATICFILES_DIRS):
        root = folder / f"static-{index}"
        root.mkdir(parents=True)
        for entry in source.iterdir():
            if entry.name not in ("vendor", "offline"):
                (root / entry.name).symlink_to(entry)
        roots.append(root)
    collected = folder / "collected"
    collected.mkdir()
    with override_settings(STATICFILES_DIRS=roots, STATIC_ROOT=str(collected)):
        yield
