"""Collected scripts lose comments and indentation (``config.storage.js_strip``)
and stay the same program."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.files.base import ContentFile

from config.storage import StaticStorage, js_strip

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))


def test_comments_blank_lines_and_indentation_go():
    source = (
        "// a comment line\n"
        "/** A block\n"
        " * over lines. */\n"
        "export function f(a) {\n"
        "\n"
        "    /* one line */\n"
        "    const url = 'http://x/'; // kept: not a whole line\n"
        "    /* before */ return a * 2;\n"
        "}\n"
    )
    assert js_strip(source) == (
        "export function f(a) {\n"
        "const url = 'http://x/'; // kept: not a whole line\n"
        "/* before */ return a * 2;\n"
        "}\n"
    )


@pytest.mark.parametrize(
    "source",
    [
        "const s = `line one\n    // inside the string\n`;\n",
        "const s = 'one \\\n    two';\n",
    ],
)
def test_a_string_over_lines_leaves_the_file_as_it_is(source):
    assert js_strip(source) == source


def test_the_shipped_scripts_shrink():
    before = sum(len(p.read_text()) for p in SCRIPTS)
    after = sum(len(js_strip(p.read_text())) for p in SCRIPTS)
    assert after < 0.85 * before


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_every_stripped_script_still_parses(tmp_path):
    for script in SCRIPTS:
        stripped = tmp_path / (script.stem + ".mjs")
        stripped.write_text(js_strip(script.read_text()))
        check = subprocess.run(
            ["node", "--check", str(stripped)], capture_output=True, text=True
        )
        assert check.returncode == 0, (script, check.stderr)


def test_collecting_strips_scripts_only(tmp_path):
    storage = StaticStorage(location=str(tmp_path))
    source = b"// what\n  const a = 1;\n"
    storage.save("js/a.js", ContentFile(source))
    read = ContentFile(source)
    read.read()  # as the manifest does, hashing the name before saving
    storage.save("js/b.js", read)
    storage.save("css/a.css", ContentFile(b"  a { color: red; }\n"))
    assert (tmp_path / "js" / "a.js").read_bytes() == b"const a = 1;\n"
    assert (tmp_path / "js" / "b.js").read_bytes() == b"const a = 1;\n"
    assert (tmp_path / "css" / "a.css").read_bytes() == b"  a { color: red; }\n"
