"""The static files of the offline practice game: the runtime, and what its table
page loads, for the page's config and the service worker's list (``config.webapp``).

The runtime is Pyodide's core files, fetched at install time into
``static/vendor/pyodide/`` (``make offline-runtime``; git-ignored), and the
project's pure packages zipped at ``collectstatic`` (``static/offline/``). Either
may be absent (a checkout that never ran the install step): then the offline game
is not offered, and nothing else changes.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.templatetags.static import static

RUNTIME_DIR = "vendor/pyodide/"
PURE_DIR = "offline/"
PYODIDE = RUNTIME_DIR + "pyodide.mjs"
PURE = PURE_DIR + "pure.zip"
MAIN = "js/offline/main.js"
WORKER = "js/offline/worker.js"
# The offline table's own files: its scripts (with whatever they import), styles
# and pictures. The runtime comes on top of them (``runtime_files``).
PAGE_FILES = (
    "css/site.css",
    "css/table.css",
    "favicon.svg",
    "js/forms.js",
    "js/play.js",
    "js/sw-register.js",
)
OFFLINE_SCRIPTS = "js/offline/"
TABLE_SCRIPTS = "js/table/"
ICON_DIR = "img/app/"

# ``import … from "./x.js"``, ``import "./x.js"``, ``import("./x.js")`` and
# ``new URL("./x.js", import.meta.url)``: a module's relative references.
_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|new\s+URL\(\s*)["'](\.{1,2}/[^"'?#]+)["']"""
)


def _built(path: str) -> Path:
    """Where ``collectstatic`` put ``path`` (if it ran without the manifest)."""
    return Path(settings.STATIC_ROOT) / path


def _hashed() -> dict[str, str] | None:
    """The static manifest's names, when the files are collected with hashes."""
    hashed: dict[str, str] | None = getattr(staticfiles_storage, "hashed_files", None)
    return hashed or None


def static_files(prefix: str) -> list[str]:
    """The static files whose path starts with ``prefix`` (a folder, with its
    trailing slash): the manifest's when collected with hashes, else what the
    finders offer (the pure packages' zip is built by one) and what was collected."""
    hashed = _hashed()
    if hashed is not None:
        return sorted(path for path in hashed if path.startswith(prefix))
    found: set[str] = set()
    for finder in finders.get_finders():
        for path, _storage in finder.list([]):
            name = path.replace("\\", "/")
            if name.startswith(prefix):
                found.add(name)
    folder = _built(prefix)
    if folder.is_dir():
        found.update(
            prefix + path.relative_to(folder).as_posix()
            for path in folder.rglob("*")
            if path.is_file()
        )
    return sorted(name for name in found if not name.rsplit("/", 1)[-1].startswith("."))


def static_exists(path: str) -> bool:
    hashed = _hashed()
    if hashed is not None:
        return path in hashed
    # A path, or None: Django's ``find`` gives a list for a miss when a finder
    # answers None where the others answer [].
    return isinstance(finders.find(path), str) or _built(path).is_file()


def _source(path: str) -> str:
    found = finders.find(path)
    if isinstance(found, str):
        return Path(found).read_text(encoding="utf-8", errors="replace")
    built = Path(settings.STATIC_ROOT) / path
    return (
        built.read_text(encoding="utf-8", errors="replace") if built.is_file() else ""
    )


def _with_imports(paths: list[str]) -> list[str]:
    """``paths`` and every static script they import, at any depth."""
    seen: set[str] = set()
    todo = list(paths)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.endswith((".js", ".mjs")):
            here = posixpath.dirname(path)
            for ref in _IMPORT.findall(_source(path)):
                target = posixpath.normpath(posixpath.join(here, ref))
                if not target.startswith("..") and static_exists(target):
                    todo.append(target)
    return sorted(seen)


def runtime_ready() -> bool:
    """Whether the offline game can run here: Pyodide and the pure packages."""
    return static_exists(PYODIDE) and static_exists(PURE)


def runtime_urls() -> dict[str, str] | None:
    """The offline page's ``runtime``: where the worker, Pyodide's module and the
    pure packages are served; None when the runtime is absent."""
    if not runtime_ready():
        return None
    try:
        return {
            "pyodide": static(PYODIDE),
            "pure": static(PURE),
            "worker": static(WORKER),
        }
    except ValueError:  # a file missing from the manifest: collected without it
        return None


def page_files() -> list[str]:
    """The static files the offline table page loads, imports included (the
    offline game's scripts where its runtime is installed)."""
    listed = [
        path for path in (*PAGE_FILES, *static_files(ICON_DIR)) if static_exists(path)
    ]
    listed += static_files(TABLE_SCRIPTS)
    if runtime_ready():  # the page loads the offline game's scripts only then
        listed += static_files(OFFLINE_SCRIPTS)
    return _with_imports(listed)


def runtime_files() -> list[str]:
    """The runtime's files (empty when it is absent)."""
    if not runtime_ready():
        return []
    return static_files(RUNTIME_DIR) + static_files(PURE_DIR)


def runtime_unhashed_url(path: str) -> str:
    """The address a file of the runtime is asked for by name: Pyodide's module
    loads its siblings by their own names from its folder, not by hashed names."""
    return settings.STATIC_URL + path
