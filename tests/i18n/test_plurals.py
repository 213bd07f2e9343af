"""Polish has three plural forms (1 kamień, 2 kamienie, 5 kamieni; 22 like 2, 25
like 5): the server's ``ngettext`` and the page's JavaScript catalog both pick the
right one."""

from __future__ import annotations

import gettext as stdlib_gettext
import json

import pytest
from django.test import RequestFactory
from django.utils import translation
from django.views.i18n import JSONCatalog

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
