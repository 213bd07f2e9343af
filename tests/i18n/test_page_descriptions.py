"""Every public page carries one ``<meta name="description">`` of its own, short
enough for a search result, in the page's language; a variant's rules page and
leaderboard describe that variant."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from games.engine import VARIANTS
from games.guide.data import GUIDE
from games.names import variant_title
from games.replays.access import replay_share_token
from tests.support.pages import in_language
from tests.support.tables import finished_practice

pytestmark = pytest.mark.django_db

# What a search result shows before it cuts the text.
LONGEST = 155


def description(html: str) -> str:
    found = re.findall(r'<meta name="description" content="([^"]*)">', html)
    assert len(found) == 1, f"{len(found)} descriptions"
    head = html[: html.index("</head>")]
    assert found[0] in head, "the description is in the head"
    return unescape(found[0])


def default_description() -> str:
    html = engines["django"].from_string('{% extends "base.html" %}').render({})
    return description(html)


@pytest.fixture
def public_pages(make_user) -> tuple[Client, dict[str, str]]:
    """A reader signed in (player pages ask for it) and the public pages: name →
    address (a shared replay by its link)."""
    player = make_user("marta")
    ended = finished_practice(player)
    replay = reverse("table-replay", args=[ended.pk])
    pages = {
        "home": reverse("home"),
        "rules": reverse("rules"),
        **{f"rules {v}": reverse("rules-variant", args=[v]) for v in GUIDE},
        **{f"leaderboard {v}": reverse("leaderboard", args=[v]) for v in VARIANTS},
        "league top": reverse("league_top"),
        "player": reverse("player-profile", args=[player.username]),
        "replay": f"{replay}?share={replay_share_token(ended)}",
        "embed": reverse("embed-code"),
    }
    reader = Client()
    reader.force_login(make_user("reader"))
    return reader, pages


def descriptions_of(
    client: Client, pages: dict[str, str], language: str
) -> dict[str, str]:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    found = {}
    for name, path in pages.items():
        response = client.get(in_language(path, language))
        assert response.status_code == 200, (name, response.status_code)
        found[name] = description(response.content.decode())
    return found


def test_every_public_page_describes_itself(public_pages):
    client, pages = public_pages
    found = descriptions_of(client, pages, "en")
    default = default_description()
    for name, text in found.items():
        assert text.strip(), name
        assert len(text) <= LONGEST, (name, len(text), text)
        assert text != default, f"{name} keeps the default description"
    # One description per page: none shared by two pages.
    assert len(set(found.values())) == len(found), found
    assert "marta" in found["player"]


@pytest.mark.parametrize("variant", list(GUIDE))
def test_a_variant_s_rules_page_describes_that_variant(variant):
    html = Client().get(reverse("rules-variant", args=[variant])).content.decode()
    text = description(html)
    assert variant_title(variant) in text
    assert str(GUIDE[variant].summary) in text


def test_the_description_is_in_the_page_s_language(public_pages):
    client, pages = public_pages
    english = descriptions_of(client, pages, "en")
    german = descriptions_of(client, pages, "de")
    with translation.override("de"):
        title, summary = variant_title("all_fives"), str(GUIDE["all_fives"].summary)
    # The variant's name and summary are German already; the rest follows the
    # catalog as it is translated.
    assert title in german["rules all_fives"]
    assert summary in german["rules all_fives"]
    assert german["rules all_fives"] != english["rules all_fives"]


def test_the_default_and_what_a_page_puts_in_are_escaped_once():
    assert default_description()
    template = engines["django"].from_string(
        '{% extends "base.html" %}{% block description %}'
        'Say "hi" & <b>{{ name }}</b>{% endblock %}'
    )
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    html = template.render({"name": "Tom & Jerry"}, request=request)
    raw = re.search(r'<meta name="description" content="([^"]*)">', html)
    assert raw is not None
    assert raw.group(1) == (
        "Say &quot;hi&quot; &amp; &lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"
    )


def test_the_embedded_game_describes_itself_in_its_language(client):
    """The frame has its own head (not base.html's): a description of its own."""
    english = description(client.get("/embed/").content.decode())
    assert english == "Play dominoes against the computer"
    spanish = description(client.get("/embed/?lang=es").content.decode())
    with translation.override("es"):
        assert spanish == translation.gettext("Play dominoes against the computer")
    assert spanish != english
