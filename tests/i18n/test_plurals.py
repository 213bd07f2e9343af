"""Each catalog counts as its language does: the ``Plural-Forms`` header sends every
whole number to the form of its CLDR plural category (Arabic has six, Russian three,
Japanese one), every plural entry fills all its forms, and the server's ``ngettext``
and the page's JavaScript catalog both pick the right one (Polish: 1 kamień,
2 kamienie, 5 kamieni; 22 like 2, 25 like 5)."""

from __future__ import annotations

import gettext as stdlib_gettext
import json

import polib
import pytest
from django.test import RequestFactory
from django.utils import translation
from django.views.i18n import JSONCatalog

from tests.support.catalogs import DOMAINS, ROOT, SHIPPED, catalog_path

ORDER = ("zero", "one", "two", "few", "many", "other")


def cldr_category(language: str, n: int) -> str:
    """The CLDR plural category of the whole number ``n`` (CLDR 46 plural rules,
    integer operands only: the site counts tiles, seats, coins and days)."""
    last, last2 = n % 10, n % 100
    if language == "ar":
        if n in (0, 1, 2):
            return ORDER[n]
        return "few" if 3 <= last2 <= 10 else "many" if last2 >= 11 else "other"
    if language == "he":
        return {1: "one", 2: "two"}.get(n, "other")
    if language in ("ru", "uk", "pl"):
        one = n == 1 if language == "pl" else (last == 1 and last2 != 11)
        if one:
            return "one"
        return "few" if 2 <= last <= 4 and not 12 <= last2 <= 14 else "many"
    if language in ("es", "it", "ca", "fr", "pt-br"):
        if n == 1 or (language in ("fr", "pt-br") and n == 0):
            return "one"
        return "many" if n and n % 1_000_000 == 0 else "other"
    if language in ("de", "nl", "tr", "en"):
        return "one" if n == 1 else "other"
    if language in ("fa", "hi"):
        return "one" if n in (0, 1) else "other"
    if language == "fil":
        return "other" if last in (4, 6, 9) else "one"
    assert language in ("id", "ms", "vi", "th", "zh-hans", "zh-hant", "ja", "ko")
    return "other"


SAMPLE = (*range(0, 1001), 1_000_000, 1_000_001, 2_000_000, 21_000_000, 1_100_000)
CLDR_INTEGER_CATEGORIES = {
    language: tuple(
        c for c in ORDER if c in {cldr_category(language, n) for n in SAMPLE}
    )
    for language in SHIPPED
}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", SHIPPED)
def test_the_plural_header_is_the_cldr_one(language, domain):
    po = polib.pofile(str(catalog_path(ROOT, language, domain)))
    header = po.metadata["Plural-Forms"]
    categories = CLDR_INTEGER_CATEGORIES[language]
    nplurals = int(header.split("nplurals=")[1].split(";")[0])
    assert nplurals == len(categories), header
    index = stdlib_gettext.c2py(header.split("plural=")[1].rstrip(";"))
    wrong = [
        n for n in SAMPLE if index(n) != categories.index(cldr_category(language, n))
    ]
    assert not wrong, f"{header}: wrong form for {wrong[:8]}"
    for entry in po:
        if entry.msgid_plural and not entry.obsolete:
            forms = [entry.msgstr_plural.get(i, "") for i in range(nplurals)]
            assert all(forms), f"a form missing for {entry.msgid!r}"
            assert len(entry.msgstr_plural) == nplurals, entry.msgid


def test_the_categories_are_cldrs():
    assert CLDR_INTEGER_CATEGORIES["ar"] == ORDER
    assert CLDR_INTEGER_CATEGORIES["ru"] == ("one", "few", "many")
    assert CLDR_INTEGER_CATEGORIES["ja"] == ("other",)
    assert CLDR_INTEGER_CATEGORIES["pt-br"] == ("one", "many", "other")
    assert [cldr_category("ar", n) for n in (0, 1, 2, 3, 11, 100, 102, 111)] == [
        "zero",
        "one",
        "two",
        "few",
        "many",
        "other",
        "other",
        "many",
    ]
    assert [cldr_category("fil", n) for n in (1, 3, 4, 10, 16, 19)] == [
        "one",
        "one",
        "other",
        "one",
        "other",
        "other",
    ]


COUNTS = (1, 2, 5, 22, 25)


def polish(singular: str, plural: str, n: int) -> str:
    with translation.override("pl"):
        return translation.ngettext(singular, plural, n) % {"n": n}


def test_seats_in_polish():
    forms = [polish("%(n)s seat", "%(n)s seats", n) for n in COUNTS]
    assert forms == ["1 miejsce", "2 miejsca", "5 miejsc", "22 miejsca", "25 miejsc"]


@pytest.mark.parametrize(
    ("n", "word"),
    [(1, "gracz"), (2, "gracze"), (5, "graczy"), (22, "gracze"), (25, "graczy")],
)
def test_players_in_polish(n, word):
    with translation.override("pl"):
        text = translation.ngettext(
            "%(variant)s, %(n)d player", "%(variant)s, %(n)d players", n
        ) % {"variant": "Draw", "n": n}
    assert text == f"Draw, {n} {word}"


def js_catalog(language: str) -> dict:
    with translation.override(language):
        response = JSONCatalog.as_view()(RequestFactory().get("/jsi18n/json/"))
    return json.loads(response.content)


def test_the_pages_catalog_counts_like_the_server():
    data = js_catalog("pl")
    plural_index = stdlib_gettext.c2py(data["plural"])
    assert [plural_index(n) for n in COUNTS] == [0, 1, 2, 1, 2]
