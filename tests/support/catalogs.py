"""Reading the shipped catalogs in tests: which English phrases of ours a page in
another language must not show, and the text of a page a person reads."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import polib
from django.conf import settings
from django.utils.translation import to_locale

ROOT = Path(settings.BASE_DIR)
SHIPPED = tuple(code for code, _name in settings.LANGUAGES if code != "en")
DOMAINS = ("django", "djangojs")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|<[^>]+>|\{[^}]*\}")
SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
READ_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', re.I)
TAG = re.compile(r"<[^>]+>")


def catalog_path(root: Path, language: str, domain: str) -> Path:
    """The catalog of a site language code (``pt-br`` lives in ``pt_BR``)."""
    return root / "locale" / to_locale(language) / "LC_MESSAGES" / f"{domain}.po"


@cache
def english_phrases(
    language: str, domains: tuple[str, ...] = ("django",)
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The msgids (their literal runs between placeholders) that the catalogs render
    differently in ``language``, except words the translations themselves use
    (loanwords such as a variant's name)."""
    entries = [
        entry
        for domain in domains
        for entry in polib.pofile(str(catalog_path(ROOT, language, domain)))
        if not entry.obsolete
    ]
    translations = " ".join(
        [e.msgstr for e in entries]
        + [s for e in entries for s in e.msgstr_plural.values()]
    )
    phrases: set[str] = set()
    for entry in entries:
        if entry.msgstr == entry.msgid:
            continue
        for run in PLACEHOLDER.split(entry.msgid):
            run = " ".join(run.split()).strip(" .,:;·—-()")
            if len(run) < 4 or not re.search(r"[A-Za-z]{3}", run):
                continue
            if re.search(rf"(?<!\w){re.escape(run)}(?!\w)", translations):
                continue
            phrases.add(run)
    return tuple(
        (p, re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])")) for p in sorted(phrases)
    )


@cache
def _english_pattern(language: str, domains: tuple[str, ...]) -> re.Pattern[str] | None:
    """All of a language's English phrases in one pattern, longest first: one scan
    of a page instead of one per phrase."""
    phrases = sorted((p for p, _found in english_phrases(language, domains)), key=len)
    if not phrases:
        return None
    either = "|".join(re.escape(p) for p in reversed(phrases))
    return re.compile(rf"(?<![\w-])(?:{either})(?![\w-])")


def english_found(
    text: str, language: str, domains: tuple[str, ...] = ("django",)
) -> list[str]:
    """The English phrases of our catalogs that ``text`` shows (where two overlap,
    the longer)."""
    pattern = _english_pattern(language, domains)
    if pattern is None:
        return []
    return sorted(set(pattern.findall(text)))


def readable_text(page: str) -> str:
    """What a person reads: the text between tags and the attributes read aloud."""
    page = SCRIPT_OR_STYLE.sub(" ", page)
    attributes = " | ".join(READ_ATTRIBUTES.findall(page))
    return html.unescape(" ".join(TAG.sub(" | ", page).split()) + " | " + attributes)


@cache
def same_as_english(language: str) -> frozenset[str]:
    """The msgids a language writes as English does, listed under "Same as English"
    in its glossary (docs/glossary.md)."""
    path = ROOT / "docs" / "glossary" / f"{language}.md"
    if not path.is_file():
        return frozenset()
    listed: set[str] = set()
    inside = False
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            inside = line.strip("# ").lower() == "same as english"
        elif inside and line.lstrip().startswith("- `"):
            listed.add(line.strip()[3:].rsplit("`", 1)[0])
    return frozenset(listed)
