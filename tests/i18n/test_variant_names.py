"""One name per variant across the site, in each language where players have one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine
from games.names import variant_title

LANGUAGES = ["es", "ca", "pl", "it"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_variant_has_a_name_of_its_own_language(language):
    """Plain English titles ("Block", "Draw", "Spider") read as untranslated; each
    language gives its players' name, keeping the English one in brackets at most."""
    with translation.override("en"):
        english = {key: variant_title(key) for key in engine.VARIANTS}
    with translation.override(language):
        local = {key: variant_title(key) for key in engine.VARIANTS}
    assert all(local[key] != english[key] for key in engine.VARIANTS), local
    assert len(set(local.values())) == len(local), "two variants share a name"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_home_page_names_the_variants_as_the_rest_of_the_site(language):
    with translation.override(language):
        home = reverse("home")  # the home page's address in the language
        titles = [variant_title(key) for key in engine.VARIANTS]
    page = Client().get(home).content.decode()
    listed = page.split('id="variant-list">', 1)[1].split("</p>", 1)[0]
    for title in titles:
        assert title.replace("'", "&#x27;") in listed
    assert "Spanish Fives" not in page


def test_catalan_calls_the_computer_one_way():
    """Catalan players read "màquina" for the computer everywhere, never "bot":
    "bot" is only for bot accounts (programs playing through the API, labelled
    BOT), whose English says "bot" too."""
    import re
    from pathlib import Path

    import polib

    for domain in ("django", "djangojs"):
        path = Path(f"locale/ca/LC_MESSAGES/{domain}.po")
        for entry in polib.pofile(str(path)):
            text = entry.msgstr or " ".join(entry.msgstr_plural.values())
            if re.search(r"\bbots?\b", entry.msgid, re.I):
                continue
            assert not re.search(r"\bbots?\b", text, re.I), (entry.msgid, text)
