"""No template shows English outside ``{% translate %}``/``{% blocktranslate %}``.

Django's template ``Lexer`` splits each template into tokens. The scan rebuilds the
page with every translated part (and every ``{{ value }}`` and tag) replaced by a
mark, then reads it with Python's HTML parser: text that still holds letters, or
a ``title``, ``aria-label``, ``placeholder`` or ``alt`` attribute (or a submit
button's ``value``) that does, is English the extraction would miss. Scripts and
styles are not prose; comments (``{# #}``, ``{% comment %}``) are not shown.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
PROSE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
MARK = "\x00"
_TRANSLATE = re.compile(r"^(translate|trans)\s")
_BLOCK_OPEN = re.compile(r"^(blocktranslate|blocktrans)\b")
_BLOCK_CLOSE = re.compile(r"^(endblocktranslate|endblocktrans)\b")


def _is_prose(text: str) -> bool:
    return any(c.isalpha() for c in text.replace(MARK, ""))


def _masked(source: str) -> str:
    """The template as HTML, each tag, value and translated text a ``MARK``."""
    parts: list[str] = []
    depth = 0  # inside {% blocktranslate %} … {% endblocktranslate %}
    hidden = ""  # the closing tag of {% comment %} or {% verbatim %} being skipped
    for token in Lexer(source).tokenize():
        content = token.contents
        if hidden:
            if token.token_type == TokenType.BLOCK and content == hidden:
                hidden = ""
            continue
        if token.token_type == TokenType.BLOCK:
            if content.startswith("comment"):
                hidden = "endcomment"
                continue
            if _BLOCK_OPEN.match(content):
                depth += 1
            elif _BLOCK_CLOSE.match(content):
                depth -= 1
            parts.append(MARK)
        elif token.token_type == TokenType.TEXT:
            parts.append(MARK if depth else content)
        elif token.token_type == TokenType.VAR:
            parts.append(MARK)
    return "".join(parts)


class _ProseFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.raw = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self.raw += 1
        shown = set(PROSE_ATTRIBUTES)
        if tag == "input" and dict(attrs).get("type") in {"submit", "button", "reset"}:
            shown.add("value")  # the button's caption
        for name, value in attrs:
            if name in shown and value and _is_prose(value):
                self.found.append((self.getpos()[0], f'{name}="{value}"'))

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"} and self.raw:
            self.raw -= 1

    def handle_data(self, data: str) -> None:
        if not self.raw and _is_prose(data):
            self.found.append((self.getpos()[0], data.strip().replace(MARK, "…")))


def scan_template(source: str) -> list[tuple[int, str]]:
    """(line, text) for every piece of English outside the translation tags."""
    finder = _ProseFinder()
    finder.feed(_masked(source))
    finder.close()
    return finder.found


def _templates() -> list[Path]:
    roots = [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]
    return sorted(p for root in roots for p in root.rglob("*.html"))


# ---------------------------------------------------------------- the scanner


@pytest.mark.parametrize(
    "source",
    [
        "<p>Your turn</p>",
        "{% load i18n %}<h1>{% translate 'Wallet' %}</h1><p>coins left</p>",
        '<button title="Draw a tile">{% translate "Draw" %}</button>',
        '<nav aria-label="Pages">…</nav>',
        '<input placeholder="Username">',
        '<img src="x.svg" alt="A double six">',
        "<p>{{ n }} coins</p>",
        '<a title="{% if a %}Open{% else %}{% translate "Closed" %}{% endif %}">',
        "<td>Level&nbsp;3</td>",
        "{% if x %}Welcome back{% endif %}",
        '<input type="submit" value="Post the correction">',
    ],
)
def test_the_scanner_flags_bare_english(source: str) -> None:
    assert scan_template(source), source


@pytest.mark.parametrize(
    "source",
    [
        "{% load i18n %}<p>{% translate 'Your turn' %}</p>",
        "{% blocktranslate trimmed with n=count %}\n  {{ n }} coins\n"
        "{% endblocktranslate %}",
        "{% blocktranslate count n=k %}{{ n }} coin{% plural %}{{ n }} coins"
        "{% endblocktranslate %}",
        "<nav aria-label=\"{% translate 'Pages' %}\">&middot; — 3 · 4</nav>",
        '<a title="{{ table.name }}" class="button primary" href="/play/">→</a>',
        "<script>const label = 'not prose for this scan';</script>",
        "<style>.button { color: red; }</style>",
        "{# a note for developers #}<p>{{ value }}</p>",
        "{% comment %}An explanation{% endcomment %}<p>12 / 30</p>",
        '<input type="text" name="username" value="{{ form.username.value }}">',
    ],
)
def test_the_scanner_passes_translated_pages(source: str) -> None:
    assert scan_template(source) == [], source


# ---------------------------------------------------------------- the templates


def test_every_template_sentence_is_translated() -> None:
    found = []
    for path in _templates():
        for line, text in scan_template(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert found == [], "\n" + "\n".join(found)


def test_the_scan_reads_the_site_and_the_app_templates() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _templates()}
    assert "templates/base.html" in names
    assert "economy/templates/economy/wallet.html" in names
    assert len(names) > 20
