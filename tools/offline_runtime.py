#!/usr/bin/env python3
"""Fetch Pyodide's core into static/vendor/pyodide/: the offline game's runtime.

    python3 tools/offline_runtime.py [--dest DIR]

The npm package ``pyodide``, at the exact version below, comes from the npm
registry's tarball URL; its SHA-256 must be the one pinned here, or nothing is
written. Only the files a Web Worker needs to run Python are kept (no source maps,
type definitions or consoles). A ``.version`` file records what is there: when it
matches, the run ends at once, so ``make run`` and ``make test`` may call it every
time. Nothing downloads at run time: the site serves these files from /static/.

Standard library only: it runs before the virtual environment exists.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

VERSION = "0.29.5"
SHA256 = "6749b10ee515a1458ecea36d860c8ce2a48366e85b3f92d749ad1840e4aff181"
URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
STAMP = ".version"
ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "static" / "vendor" / "pyodide"
TIMEOUT_S = 120


def stamp_text() -> str:
    return f"pyodide {VERSION} sha256:{SHA256}\n"


def present(dest: Path) -> bool:
    """Whether ``dest`` already holds this version's files."""
    stamp = dest / STAMP
    return (
        stamp.is_file()
        and stamp.read_text() == stamp_text()
        and all((dest / name).is_file() for name in FILES)
    )


def download(url: str) -> bytes:
    if not url.startswith("https://registry.npmjs.org/"):
        raise ValueError(f"not the npm registry: {url}")
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:  # noqa: S310
        data: bytes = response.read()
    return data


def unpack(tarball: bytes, dest: Path) -> None:
    """Write ``FILES`` from the package's tarball into ``dest``, all or nothing:
    they are unpacked next to it and moved in place once all are there."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=dest.parent))
    staging.chmod(0o755)  # mkdtemp's is 0700: the web server must read it
    try:
        with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
            for name in FILES:
                member = archive.getmember(f"package/{name}")
                source = archive.extractfile(member)
                if not member.isfile() or source is None:
                    raise ValueError(f"{name} is not a file in the package")
                (staging / name).write_bytes(source.read())
        (staging / STAMP).write_text(stamp_text())
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(staging, dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dest", type=Path, default=DEST)
    args = parser.parse_args(argv)
    dest: Path = args.dest
    if present(dest):
        (dest / STAMP).touch()  # newer than this file: make need not ask again
        return 0
    print(f"fetching Pyodide {VERSION} from the npm registry", file=sys.stderr)
    try:
        tarball = download(URL)
    except OSError as exc:
        print(f"could not fetch {URL}: {exc}", file=sys.stderr)
        return 2
    digest = hashlib.sha256(tarball).hexdigest()
    if digest != SHA256:
        print(
            f"{URL} has SHA-256 {digest}, not the pinned {SHA256}: nothing written",
            file=sys.stderr,
        )
        return 2
    unpack(tarball, dest)
    print(f"Pyodide {VERSION} is in {dest}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
