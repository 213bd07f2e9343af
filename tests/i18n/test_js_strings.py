"""No user-facing English in static/js/ outside the translation functions.

The page's JavaScript shows its own words through Django's JavaScript catalog:
``gettext("…")``, ``ngettext("…", "…", n)`` and ``pgettext("context", "…")`` with
string literals, which ``manage.py makemessages -d djangojs`` (xgettext) extracts.
A sentence written as a bare literal, or a translation call given a variable, would
never reach the translators. A small tokenizer reads every module's string and
template literals (comments and regular expressions skipped) with the place each
one stands in, and flags a literal that reads like prose outside those calls.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.i18n.js_scan import ESCAPES, Finding, Scanner, catalog_entries, findings

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"
# The module that defines the wrappers: its calls forward their arguments.
WRAPPERS = JS / "i18n.js"


def scan(source: str, path: str = "<sample>") -> list[Finding]:
    return findings(source, path, wrappers=path == str(WRAPPERS.relative_to(ROOT)))


def js_files() -> list[Path]:
    return sorted(JS.rglob("*.js"))


# --- the scanner itself


def test_a_bare_english_string_is_flagged():
    found = scan('button.textContent = "Play again";\n')
    assert [f.text for f in found] == ["Play again"]


def test_a_template_literal_with_prose_is_flagged():
    found = scan(
        "status.textContent = `${name} won the match.`;\n"
        "const line = `Hand ${hand} of ${count}`;\n"
        "bar.append(el('button', { text: `Claim ${points}` }));\n"
    )
    assert [f.line for f in found] == [1, 2, 3]


def test_single_words_count_where_they_are_shown():
    found = scan(
        'badge.textContent = "offline";\n'
        'if (frame.type === "offline") ws.close();\n'
        'box.append(el("span", { class: "badge", text: "away" }));\n'
        'node.setAttribute("aria-label", "turn clock");\n'
        'node.setAttribute("role", "img");\n'
    )
    assert [(f.line, f.text) for f in found] == [
        (1, "offline"),
        (3, "away"),
        (4, "turn clock"),
    ]


def test_wrapped_strings_are_not_flagged():
    sample = """
    import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";
    button.textContent = gettext("Play again");
    status.textContent = interpolate(gettext("%(name)s won the match."), { name });
    heading.textContent = interpolate(
      ngettext("Your hand · %(count)s tile", "Your hand · %(count)s tiles", n),
      { count: n },
    );
    badge.textContent = pgettext("seat badge", "away");
    """
    assert scan(sample) == []


def test_a_translation_call_without_a_literal_is_flagged():
    found = scan(
        'const word = "Play again";\n'
        "button.textContent = gettext(word);\n"
        'other.textContent = gettext("Play " + "again");\n'
        "last.textContent = gettext(`Play ${what}`);\n"
    )
    assert [(f.line, f.why) for f in found] == [
        (1, "words"),
        (2, "a translation call needs string literals"),
        (3, "a translation call needs string literals"),
        (4, "a translation call needs string literals"),
    ]


def test_code_that_is_not_prose_is_not_flagged():
    sample = r"""
    "use strict";
    // Play again: a comment is not shown to anyone.
    /* Nor is "this one". */
    const re = /Play again\/now/g;
    const half = total / 2 / count;
    el.className = "button main idle";
    box.querySelector(".hand .tile-btn, #main-action:not([disabled])");
    window.matchMedia("(max-width: 700px)");
    fetch("/play/stakes/state.json", { headers: { Accept: "application/json" } });
    event.dataTransfer.setData("text/plain", key);
    if (event.key === "Escape") stop();
    send({ type: "warning_seen" });
    const headers = { "X-CSRFToken": csrf(), "Content-Type": "text/html" };
    const url = `${scheme}://${window.location.host}${this.path}`;
    row.className = `arm${spinner ? ` spin-arm arm-${compass}` : ""}`;
    """
    assert scan(sample) == []


def test_the_tokenizer_refuses_what_it_cannot_read():
    with pytest.raises(SyntaxError):
        Scanner('const a = "unterminated;\n').run()
    with pytest.raises(SyntaxError):
        Scanner("call(a, b;\n").run()


# --- the modules


@pytest.mark.parametrize("path", js_files(), ids=lambda p: str(p.relative_to(JS)))
def test_no_user_facing_string_outside_the_translation_functions(path: Path):
    found = scan(path.read_text(), str(path.relative_to(ROOT)))
    assert not found, "untranslated text:\n" + "\n".join(map(str, found))


def test_the_table_page_uses_the_catalog():
    # The scan above passes trivially on modules without literals: check it sees
    # the table's words inside translation calls.
    entries = set()
    for path in (JS / "table").glob("*.js"):
        entries |= catalog_entries(path.read_text())
    assert ("draw from the stock", "Draw") in entries
    assert (None, "Pass (knock)") in entries
    assert (None, "Your hand · %(count)s tiles") in entries
    assert ("end of the layout", "left") in entries


def _xgettext_entries(paths: list[Path]) -> set[tuple[str | None, str]]:
    """What xgettext extracts with the arguments makemessages -d djangojs gives it."""
    run = subprocess.run(
        [
            "xgettext",
            "--language=JavaScript",
            "--from-code=UTF-8",
            "--keyword=gettext_noop",
            "--keyword=gettext_lazy",
            "--keyword=ngettext_lazy:1,2",
            "--keyword=pgettext:1c,2",
            "--keyword=npgettext:1c,2,3",
            "--no-wrap",
            "--output=-",
            *map(str, paths),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    entries: set[tuple[str | None, str]] = set()
    field_name = None
    values: dict[str, str] = {}

    def flush() -> None:
        for key in ("msgid", "msgid_plural"):
            if values.get(key):
                entries.add((values.get("msgctxt"), values[key]))
        values.clear()

    for line in run.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        match = re.match(
            r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line
        )
        if match:
            if match.group(1) in ("msgctxt", "msgid") and "msgid" in values:
                flush()
            field_name = match.group(1)
            values[field_name] = _po_unescape(match.group(2))
        elif line.startswith('"') and field_name:
            values[field_name] += _po_unescape(line[1:-1])
    flush()
    return entries


def _po_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), text)


@pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="needs GNU gettext (xgettext)"
)
def test_xgettext_extracts_every_wrapped_string():
    paths = [p for p in js_files() if p != WRAPPERS]
    expected: set[tuple[str | None, str]] = set()
    for path in paths:
        expected |= catalog_entries(path.read_text())
    extracted = _xgettext_entries(paths)
    assert len(expected) > 100
    # Both ways: a text the scanner saw in a call but xgettext missed never reaches
    # the translators; one xgettext found outside what the scanner saw as a call
    # means the tokenizer lost its place.
    assert expected - extracted == set(), "not extracted"
    assert extracted - expected == set(), "extracted, but not seen as a call here"
