"""Every page a player reads, rendered in each shipped language, carries no English
phrase of our own catalog: what the page says went through the catalog and the
catalog has it in that language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.services import table_practice_create
from tests.support.catalogs import (
    SHIPPED,
    english_found,
    english_phrases,
    readable_text,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(make_user):
    return make_user("Marta")


def pages(player) -> dict[str, tuple[str, bool]]:
    """Page name -> (path, signed in)."""
    table = table_practice_create(user=player, variant="block", bot_levels=["easy"])
    return {
        "home": ("/", True),
        "play": (reverse("play"), True),
        "lobby": (reverse("lobby"), True),
        "table": (reverse("table", args=[table.pk]), True),
        "wallet": (reverse("wallet"), True),
        "shop": (reverse("shop"), True),
        "profile": (reverse("profile"), True),
        "rules": (reverse("rules"), False),
        "rules of a variant": (reverse("rules-variant", args=["all_fives"]), False),
        "sign-up": (reverse("account_signup"), False),
        "log-in": (reverse("account_login"), False),
    }


@pytest.mark.parametrize("language", SHIPPED)
def test_no_page_shows_english_from_our_catalog(language, player):
    leftovers: dict[str, list[str]] = {}
    for name, (path, signed_in) in pages(player).items():
        client = Client()
        if signed_in:
            client.force_login(player)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(path)
        assert response.status_code == 200, (name, response.status_code)
        text = readable_text(response.content.decode())
        assert f'lang="{language}"' in response.content.decode()
        found = english_found(text, language)
        if found:
            leftovers[name] = found
    assert not leftovers, leftovers


def test_the_check_sees_english(player):
    """The same check on the English pages finds the catalog's phrases."""
    client = Client()
    client.force_login(player)
    text = readable_text(client.get(reverse("wallet")).content.decode())
    assert any(found.search(text) for _p, found in english_phrases("es"))
