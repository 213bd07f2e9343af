"""``/static/offline/pure.zip``: the pure packages the offline game runs in the browser.

The browser's Python (Pyodide, in a Web Worker) imports ``games.offline``, which
stands on ``games.engine`` and ``games.bots`` (the hard player's search on
``games.solver``). A staticfiles finder zips those four packages' source files
from the tree and offers the zip as ``offline/pure.zip``, so ``collectstatic``
collects (and hashes) it like any other file and the tests' own
servers, which serve from the finders, serve it too. There is no
``games/__init__.py`` in it (that one is Django's app): the worker unpacks the zip
into a folder, where ``games`` is a namespace package.

The zip is written to ``OFFLINE_BUILD_DIR`` (ignored by git), rebuilt whenever the
sources change; its bytes depend only on their names and contents (fixed dates,
sorted names), so its hashed name changes only when they do.
"""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

ZIP_NAME = "offline/pure.zip"
PACKAGES = ("games/engine", "games/solver", "games/bots", "games/offline")
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can carry


def pure_sources(root: Path | None = None) -> list[str]:
    """The zip's entries: every ``.py`` file of ``PACKAGES``, relative to the tree's
    root, sorted."""
    base = Path(settings.BASE_DIR) if root is None else root
    names = []
    for package in PACKAGES:
        for path in (base / package).rglob("*.py"):
            if "__pycache__" not in path.parts:
                names.append(path.relative_to(base).as_posix())
    return sorted(names)


def pure_zip_bytes(root: Path | None = None) -> bytes:
    """The zip of ``pure_sources``, the same bytes for the same sources."""
    base = Path(settings.BASE_DIR) if root is None else root
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in pure_sources(base):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (base / name).read_bytes(), compresslevel=9)
    return out.getvalue()


def pure_zip_build() -> Path:
    """Write the zip under ``OFFLINE_BUILD_DIR`` if it is missing or stale; its path."""
    target = Path(settings.OFFLINE_BUILD_DIR) / ZIP_NAME
    data = pure_zip_bytes()
    if target.is_file() and target.read_bytes() == data:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".pure-", dir=target.parent)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(temporary, 0o644)
    os.replace(temporary, target)  # a reader sees the old zip or the new, whole
    return target


class PureZipFinder(BaseFinder):
    """Offers ``offline/pure.zip``, built from the source tree when asked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=settings.OFFLINE_BUILD_DIR)

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        if path != ZIP_NAME:
            return []  # a miss, as Django's own finders answer it either way
        found = str(pure_zip_build())
        return [found] if find_all else found

    def list(self, ignore_patterns: Any) -> Any:
        pure_zip_build()
        yield ZIP_NAME, self.storage
