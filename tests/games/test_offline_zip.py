"""``/static/offline/pure.zip``: exactly the source files of ``games/engine``,
``games/solver``, ``games/bots`` and ``games/offline``, enough on their own for the
offline game, and collected (with Pyodide's files left as published) by
``collectstatic``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from games.offline_static import ZIP_NAME, pure_zip_bytes

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "solver", "bots", "offline")


def source_files() -> dict[str, bytes]:
    """Every .py file of the four packages, read from the tree independently."""
    out = {}
    for package in PACKAGES:
        for folder, dirs, files in os.walk(ROOT / "games" / package):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                if name.endswith(".py"):
                    path = Path(folder) / name
                    out[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    return out


def test_the_zip_holds_exactly_the_pure_packages_source_files() -> None:
    found = finders.find(ZIP_NAME)
    assert isinstance(found, str)
    with zipfile.ZipFile(found) as archive:
        held = {name: archive.read(name) for name in archive.namelist()}
    expected = source_files()
    assert set(held) == set(expected)
    assert held == expected
    assert "games/engine/__init__.py" in held and "games/offline/__init__.py" in held
    assert "games/__init__.py" not in held  # Django's app, not the offline game's


def test_the_zip_is_the_same_bytes_for_the_same_sources() -> None:
    assert pure_zip_bytes() == pure_zip_bytes()
    found = finders.find(ZIP_NAME)
    assert isinstance(found, str)
    assert Path(found).read_bytes() == pure_zip_bytes()


def test_the_zip_alone_plays_a_game(tmp_path: Path) -> None:
    """Unpacked where nothing else of the project is, as the worker does, the zip's
    packages start a game and answer with a frame: they need nothing but the
    standard library."""
    zipfile.ZipFile(io.BytesIO(pure_zip_bytes())).extractall(tmp_path)
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from games import offline\n"
        "game = offline.new_game('draw', {}, ['hard'], 'ab' * 32)\n"
        "while offline.computer_turn(game) is not None:\n"
        "    game = offline.computer_move(game, 1)\n"
        "frame = offline.state_frame(game)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django']\n"
        "print(json.dumps({'you': frame['you'], 'file': offline.__file__}))\n"
    )
    done = subprocess.run(
        # Isolated, without site-packages: only the standard library and the zip.
        [sys.executable, "-I", "-S", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["you"] == 0
    assert said["file"].startswith(str(tmp_path))


def test_collectstatic_hashes_the_zip_and_leaves_vendor_scripts_as_published(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    vendor = source / "vendor" / "runtime"
    vendor.mkdir(parents=True)
    # Like pyodide.asm.js: a dynamic import of a Python module, not of a file.
    published = b'// built\nconst m = await import("functools");\n'
    (vendor / "core.js").write_bytes(published)
    (source / "js").mkdir()
    (source / "js" / "own.js").write_bytes(b'// ours\nimport "./other.js";\n')
    (source / "js" / "other.js").write_bytes(b"export const x = 1;\n")
    root = tmp_path / "collected"
    with override_settings(
        STATICFILES_DIRS=[source],
        STATIC_ROOT=str(root),
        STATICFILES_FINDERS=[
            "django.contrib.staticfiles.finders.FileSystemFinder",
            "games.offline_static.PureZipFinder",
        ],
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
        },
    ):
        call_command("collectstatic", "--noinput", "-v0")
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    hashed_zip = root / manifest[ZIP_NAME]
    assert hashed_zip != root / ZIP_NAME
    assert hashed_zip.read_bytes() == pure_zip_bytes()
    assert (vendor / "core.js").read_bytes() == (
        root / "vendor/runtime/core.js"
    ).read_bytes()
    assert (root / manifest["vendor/runtime/core.js"]).read_bytes() == published
    own = (root / manifest["js/own.js"]).read_text()
    assert "// ours" not in own and manifest["js/other.js"].split("/")[-1] in own


@pytest.mark.parametrize("name", ["offline/other.zip", "js/offline/pure.zip"])
def test_the_finder_offers_nothing_else(name: str) -> None:
    from games.offline_static import PureZipFinder

    finder = PureZipFinder()
    assert finder.find(name) == []
    assert finder.find(name, find_all=True) == []
    # Django's find() then answers None for a file no finder has.
    assert finders.find(name) is None
