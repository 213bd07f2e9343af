"""The shipped catalogs: complete in every language, valid for msgfmt, and exactly
what the extraction finds in the code today (``makemessages`` run in a scratch copy
of the tree and compared entry by entry)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.utils.translation import to_locale

from ops.management.commands.makemessages import IGNORED
from tests.i18n.test_plurals import CLDR_INTEGER_CATEGORIES
from tests.support.catalogs import (
    DOMAINS,
    ROOT,
    SHIPPED,
    catalog_path,
    same_as_english,
)


def entry_keys(po: polib.POFile) -> set[tuple[str | None, str, str | None]]:
    return {
        (entry.msgctxt, entry.msgid, entry.msgid_plural or None)
        for entry in po
        if not entry.obsolete
    }


def test_every_site_language_ships_catalogs():
    for language in SHIPPED:
        for domain in DOMAINS:
            assert catalog_path(ROOT, language, domain).is_file(), (language, domain)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", SHIPPED)
def test_no_entry_is_untranslated_or_fuzzy(language, domain):
    po = polib.pofile(str(catalog_path(ROOT, language, domain)))
    assert not po.metadata_is_fuzzy, "the header is marked fuzzy"
    assert po.metadata.get("Language") == to_locale(language)
    nplurals = len(CLDR_INTEGER_CATEGORIES[language])
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, (
        f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    )
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"
    for entry in po:
        if entry.msgid_plural and not entry.obsolete:
            forms = [entry.msgstr_plural.get(n, "") for n in range(nplurals)]
            assert all(forms), f"plural forms missing for {entry.msgid!r}"


@pytest.mark.parametrize("language", SHIPPED)
def test_msgfmt_accepts_the_catalogs(language):
    """Placeholders match their msgid (``python-format``/``javascript-format``) and
    plural headers are well formed: what ``compilemessages`` relies on."""
    for domain in DOMAINS:
        done = subprocess.run(
            [
                "msgfmt",
                "--check",
                "-o",
                "/dev/null",
                str(catalog_path(ROOT, language, domain)),
            ],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr


def scratch_copy(target: Path) -> Path:
    skip = {".git", *IGNORED}

    def ignore(directory: str, names: list[str]) -> set[str]:
        return {
            n for n in names if n in skip or n.endswith((".mo", ".pyc", ".sqlite3"))
        }

    shutil.copytree(ROOT, target, ignore=ignore)
    return target


def test_the_catalogs_hold_exactly_what_the_code_asks_for(tmp_path):
    """A string added to the code but not to the catalogs (or one left behind after
    its code went) fails here: run ``make messages`` and translate the new entries."""
    copy = scratch_copy(tmp_path / "tree")
    for domain in DOMAINS:
        done = subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "-v0"]
            + [f"--locale={to_locale(language)}" for language in SHIPPED],
            cwd=copy,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    for language in SHIPPED:
        for domain in DOMAINS:
            shipped = entry_keys(
                polib.pofile(str(catalog_path(ROOT, language, domain)))
            )
            found = entry_keys(polib.pofile(str(catalog_path(copy, language, domain))))
            missing = sorted(str(k[1]) for k in found - shipped)
            stale = sorted(str(k[1]) for k in shipped - found)
            assert not missing, (
                f"{language}/{domain}: not in the catalog: {missing[:8]}"
            )
            assert not stale, f"{language}/{domain}: no longer in the code: {stale[:8]}"


# Strings that read the same in every language: only placeholders, numbers,
# punctuation and the units every language writes in Latin letters.
PLACEHOLDERS_ONLY = re.compile(r"^(?:%\(\w+\)[sd]|%[sd]|\{\w*\}|[\W\d_]|UTC|XP|VIP)*$")


@pytest.mark.parametrize("language", SHIPPED)
def test_no_translation_is_its_english(language):
    """A msgstr equal to its msgid is almost always a string left in English;
    the few a language writes the same are listed in its glossary."""
    kept = same_as_english(language)
    same = [
        entry.msgid
        for domain in DOMAINS
        for entry in polib.pofile(str(catalog_path(ROOT, language, domain)))
        if not entry.obsolete
        and entry.msgstr == entry.msgid
        and entry.msgid not in kept
        and not PLACEHOLDERS_ONLY.match(entry.msgid)
    ]
    assert not same, f"{len(same)} in English: {same[:10]}"


MARKS = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}|</?[a-z][^>]*>")


def marks(text: str) -> list[str]:
    """The placeholders and HTML tags of a string, in a comparable order."""
    return sorted(MARKS.findall(text))


@pytest.mark.parametrize("language", SHIPPED)
def test_placeholders_and_markup_match_the_english(language):
    """Every placeholder and HTML tag of the msgid is in the translation, and no
    other (the order may change; a plural form may leave out the count)."""
    wrong = []
    for domain in DOMAINS:
        for entry in polib.pofile(str(catalog_path(ROOT, language, domain))):
            if entry.obsolete or not entry.translated():
                continue
            if entry.msgid_plural:
                allowed = set(marks(entry.msgid) + marks(entry.msgid_plural))
                for text in entry.msgstr_plural.values():
                    found = marks(text)
                    needed = set(marks(entry.msgid_plural)) - set(marks(entry.msgid))
                    # A form may drop the count ("one tile" for 1), never add one.
                    if not set(found) <= allowed or not (
                        set(marks(entry.msgid)) <= set(found) or needed <= set(found)
                    ):
                        wrong.append((entry.msgid, text))
            elif marks(entry.msgstr) != marks(entry.msgid):
                wrong.append((entry.msgid, entry.msgstr))
    assert not wrong, f"{len(wrong)}: {wrong[:5]}"
