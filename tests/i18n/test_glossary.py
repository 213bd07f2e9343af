"""Each language names the things of the game with the words of its glossary
(docs/glossary.md, one file per language under docs/glossary/): an entry that names
the stock, the pot or a double says it with the glossary's word and never with a
word the glossary rules out; a variant's name is the glossary's name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import polib
import pytest

from tests.support.catalogs import DOMAINS, ROOT, SHIPPED, catalog_path

GLOSSARY = ROOT / "docs" / "glossary"

# Concept -> which entries name it: a msgid pattern and/or msgctxt values.
WORDS: dict[str, tuple[str | None, frozenset[str]]] = {
    "stock": (r"\b(stock|boneyard)\b", frozenset()),
    "double": (r"\bdoubles?\b", frozenset()),
    "spinner": (r"\bspinners?\b", frozenset()),
    "hand": (None, frozenset({"tiles a player holds"})),
    "deal": (
        None,
        frozenset({"a deal of the match", "every deal of a match", "deals of a match"}),
    ),
    "match point": (
        r"\bmatch point\b",
        frozenset({"a move that can decide the match"}),
    ),
    "pass": (r"(?<!VIP )\bpass(es|ed|ing)?\b", frozenset()),
    "draw": (None, frozenset({"draw from the stock"})),
    "muggins": (r"\bmuggins\b", frozenset()),
    "pot": (r"\bpots?\b", frozenset()),
    "stake": (r"\bstakes?\b", frozenset()),
    "rating": (r"\bratings?\b", frozenset()),
    "club": (r"\bclubs?\b", frozenset()),
}
# Concept -> the variant's name in the catalog (msgctxt "domino game").
VARIANTS = {
    "block": "Block",
    "draw_game": "Draw",
    "cross": "Cross",
    "grand_cross": "Grand Cross",
    "all_fives": "All Fives",
    "fives_and_threes": "Fives and Threes",
    "fives": "Fives (doble eje)",
    "catalan": "Catalan (Dòmino)",
    "spider": "Spider",
}
CONCEPTS = (*WORDS, "match", *VARIANTS)


@dataclass(frozen=True)
class Row:
    term: str
    forms: tuple[str, ...]
    never: tuple[str, ...]


def listed(cell: str) -> tuple[str, ...]:
    return tuple(
        w.strip().lower() for w in cell.split(",") if w.strip() not in ("", "-")
    )


@cache
def glossary(language: str) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for line in (GLOSSARY / f"{language}.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("Concept", "") or set(cells[0]) <= {"-"}:
            continue
        concept, term, forms, never = cells
        rows[concept] = Row(term, listed(forms), listed(never))
    return rows


@cache
def entries(language: str) -> tuple[polib.POEntry, ...]:
    return tuple(
        e
        for domain in DOMAINS
        for e in polib.pofile(str(catalog_path(ROOT, language, domain)))
        if not e.obsolete and e.translated()
    )


def translations(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values())


# A placeholder's name ("%(doubles)s", "{stake}") is not a word of the text.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def naming(concept: str, language: str) -> list[polib.POEntry]:
    pattern, contexts = WORDS[concept]
    found = re.compile(pattern, re.I) if pattern else None
    return [
        e
        for e in entries(language)
        if e.msgctxt in contexts
        or (found and found.search(PLACEHOLDER.sub(" ", e.msgid)))
    ]


@pytest.mark.parametrize("language", SHIPPED)
def test_every_language_has_a_glossary_of_every_concept(language):
    assert (GLOSSARY / f"{language}.md").is_file(), f"docs/glossary/{language}.md"
    rows = glossary(language)
    assert sorted(set(CONCEPTS) - set(rows)) == []
    assert sorted(set(rows) - set(CONCEPTS)) == []
    for concept, row in rows.items():
        assert row.term, concept
        if concept in WORDS:
            assert row.forms, f"{concept}: no forms to look for"
            short = [f for f in row.forms if len(f) < (1 if language in CJK else 2)]
            assert not short, (concept, short)


CJK = ("ja", "zh-hans", "zh-hant")


def strays(row: Row, named: list[polib.POEntry]) -> list[str]:
    """The translations of entries naming a concept that miss the glossary's word
    or use a word it rules out."""
    found = []
    for entry in named:
        for text in translations(entry):
            lower = text.lower()
            if not any(form in lower for form in row.forms):
                found.append(f"no {row.term!r}: {entry.msgid[:60]!r} -> {text[:80]!r}")
            ruled_out = [w for w in row.never if w in lower]
            if ruled_out:
                found.append(f"{ruled_out}: {entry.msgid[:60]!r} -> {text[:80]!r}")
    return found


@pytest.mark.parametrize("concept", list(WORDS))
@pytest.mark.parametrize("language", SHIPPED)
def test_the_catalog_uses_the_glossary_word(language, concept):
    found = strays(glossary(language)[concept], naming(concept, language))
    assert not found, "\n".join(found[:12]) + f"\n({len(found)} in all)"


@pytest.mark.parametrize("language", SHIPPED)
def test_a_variant_is_called_by_its_glossary_name(language):
    names = {e.msgid: e.msgstr for e in entries(language) if e.msgctxt == "domino game"}
    rows = glossary(language)
    wrong = {
        concept: (names.get(msgid), rows[concept].term)
        for concept, msgid in VARIANTS.items()
        if names.get(msgid) != rows[concept].term
    }
    assert not wrong


def test_the_check_finds_a_stray_word():
    """The stock named with a word the glossary rules out, or without its word, is
    caught; the glossary's word in any case passes."""
    row = Row("pozo", ("pozo",), ("banca",))

    def entry(msgstr: str) -> polib.POEntry:
        return polib.POEntry(msgid="The stock is empty.", msgstr=msgstr)

    assert len(strays(row, [entry("La banca está vacía.")])) == 2
    assert not PLACEHOLDER.sub(" ", "Close %(doubles)s").count("double")
    assert len(strays(row, [entry("El montón está vacío.")])) == 1
    assert strays(row, [entry("El Pozo está vacío.")]) == []
