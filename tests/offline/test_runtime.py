"""``make offline-runtime`` (tools/offline_runtime.py): Pyodide's files from a
checksummed npm tarball, all or nothing, and nothing more once they are there."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "offline_runtime", ROOT / "tools" / "offline_runtime.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tarball(names: list[str]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name in names:
            data = f"contents of {name}".encode()
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load()
    data = tarball([*module.FILES, "pyodide.js.map", "console.html"])
    calls: list[str] = []

    def download(url: str) -> bytes:
        calls.append(url)
        return data

    monkeypatch.setattr(module, "download", download)
    monkeypatch.setattr(module, "SHA256", hashlib.sha256(data).hexdigest())
    module.calls = calls  # type: ignore[attr-defined]
    return module


def test_the_pinned_version_is_fetched_from_the_npm_registry() -> None:
    module = load()
    assert (
        f"https://registry.npmjs.org/pyodide/-/pyodide-{module.VERSION}.tgz"
    ) == module.URL
    assert len(module.SHA256) == 64 and "-" not in module.VERSION
    with pytest.raises(ValueError):
        module.download("https://example.com/pyodide.tgz")


def test_only_the_core_files_are_kept_then_nothing_is_fetched_again(
    runtime: ModuleType, tmp_path: Path
) -> None:
    dest = tmp_path / "vendor" / "pyodide"
    assert runtime.main(["--dest", str(dest)]) == 0
    kept = sorted(p.name for p in dest.iterdir())
    assert kept == sorted([*runtime.FILES, ".version"])
    assert (dest / "pyodide.mjs").read_text() == "contents of pyodide.mjs"
    assert dest.stat().st_mode & 0o755 == 0o755
    assert runtime.main(["--dest", str(dest)]) == 0
    assert len(runtime.calls) == 1


def test_a_tarball_with_another_checksum_writes_nothing(
    runtime: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime, "SHA256", "0" * 64)
    dest = tmp_path / "vendor" / "pyodide"
    assert runtime.main(["--dest", str(dest)]) == 2
    assert not dest.exists()
    assert not list((tmp_path / "vendor").glob(".pyodide-*"))


def test_another_version_there_is_replaced_whole(
    runtime: ModuleType, tmp_path: Path
) -> None:
    dest = tmp_path / "pyodide"
    dest.mkdir()
    (dest / ".version").write_text("pyodide 0.0.1 sha256:old\n")
    (dest / "stale.js").write_text("old")
    assert runtime.main(["--dest", str(dest)]) == 0
    assert not (dest / "stale.js").exists()
    assert (dest / ".version").read_text() == runtime.stamp_text()
