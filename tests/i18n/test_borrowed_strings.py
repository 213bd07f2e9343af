"""The strings of allauth and Django that our pages and e-mails show are copied in
``accounts/borrowed_strings.py`` so that our catalogs carry them: each copy is still
word for word a msgid of its library, and every language the site speaks (Filipino
and Malay included, which the libraries do not ship) reads it translated."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import allauth
import django
import polib
import pytest
from django.utils import translation

from accounts.borrowed_strings import (
    BORROWED,
    BORROWED_PLURALS,
    BORROWED_WITH_CONTEXT,
)
from tests.support.catalogs import SHIPPED, same_as_english

LIBRARIES = {
    "allauth": Path(allauth.__file__).parent / "locale",
    "django": Path(django.__file__).parent / "conf" / "locale",
    "django.contrib.auth": Path(django.__file__).parent / "contrib" / "auth" / "locale",
}


@cache
def library_msgids(library: str) -> frozenset[tuple[str | None, str]]:
    """Every (msgctxt, msgid) and (msgctxt, msgid_plural) of a library's German
    catalog, which holds them all."""
    po = polib.pofile(str(LIBRARIES[library] / "de" / "LC_MESSAGES" / "django.po"))
    return frozenset(
        (e.msgctxt, text)
        for e in po
        if not e.obsolete
        for text in (e.msgid, e.msgid_plural)
        if text
    )


def plurals() -> list[tuple[str, str, str]]:
    return [(library, *forms) for library, forms in BORROWED_PLURALS]


def test_each_copy_is_still_its_librarys_msgid():
    found = library_msgids
    strays = (
        [text for library, text in BORROWED if (None, text) not in found(library)]
        + [
            text
            for library, singular, plural in plurals()
            for text in (singular, plural)
            if (None, text) not in found(library)
        ]
        + [
            text
            for library, (context, text) in BORROWED_WITH_CONTEXT
            if (context, text) not in found(library)
        ]
    )
    assert not strays


@pytest.mark.parametrize("language", SHIPPED)
def test_every_language_reads_them_translated(language):
    kept = same_as_english(language)
    with translation.override(language):
        english = (
            [
                text
                for _library, text in BORROWED
                if translation.gettext(text) == text and text not in kept
            ]
            + [
                singular
                for _library, singular, plural in plurals()
                if translation.ngettext(singular, plural, 7) == plural
                and singular not in kept
            ]
            + [
                text
                for _library, (context, text) in BORROWED_WITH_CONTEXT
                if translation.pgettext(context, text) == text and text not in kept
            ]
        )
    assert not english, english


def test_filipino_has_no_library_catalog_to_fall_back_on():
    """Without our catalog these would be English in Filipino: the copies matter."""
    assert not (LIBRARIES["django"] / "fil").exists()
    assert not (LIBRARIES["allauth"] / "fil").exists()
    assert not (LIBRARIES["allauth"] / "ms").exists()
