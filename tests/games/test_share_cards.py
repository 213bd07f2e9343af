"""Share cards: Open Graph and Twitter tags (title, description, picture) on the
pages people paste into chats, with absolute addresses and in the page's language;
the site's artwork where a page has no picture of its own."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from PIL import Image

from config.share import og_locale
from games.guide.data import GUIDE
from games.names import table_title, variant_title
from games.replays.access import replay_share_token
from games.services import table_cancel, table_practice_create
from tests.support.pages import in_language
from tests.support.tables import (
    finished_pair,
    finished_practice,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SERVER = "http://testserver"


class _Metas(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "meta":
            return
        found = dict(attrs)
        key = found.get("property") or found.get("name")
        if key and found.get("content") is not None:
            self.tags[key] = str(found["content"])


def card_of(response) -> dict[str, str]:
    assert response.status_code == 200
    parser = _Metas()
    parser.feed(response.content.decode())
    return parser.tags


def assert_full_card(tags: dict[str, str], *, path: str) -> None:
    """Every tag a preview reads, with absolute addresses."""
    for key in (
        "og:title",
        "og:description",
        "og:image",
        "og:url",
        "og:type",
        "og:site_name",
        "og:locale",
        "twitter:title",
        "twitter:description",
        "twitter:image",
    ):
        assert tags.get(key), key
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:url"] == SERVER + path
    assert tags["og:image"].startswith(SERVER + "/")
    assert tags["twitter:image"] == tags["og:image"]
    assert tags["twitter:title"] == tags["og:title"]
    assert tags["twitter:description"] == tags["og:description"]
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")


def test_the_home_page_and_the_rules_carry_the_sites_card(client):
    for path in ("/", "/rules/"):
        tags = card_of(client.get(path))
        assert_full_card(tags, path=path)
        assert re.fullmatch(
            SERVER + r"/static/img/share(\.\w+)?\.png", tags["og:image"]
        )
        assert tags["og:locale"] == "en_US"
        assert tags["og:site_name"] == "Dominoes"
    home = card_of(client.get("/"))
    assert home["og:title"] == "Play dominoes, live."
    assert (
        "against the computer, your friends or ranked opponents"
        in (home["og:description"])
    )
    assert card_of(client.get("/rules/"))["og:title"] == "Rules guide"


def test_the_artwork_is_a_card_sized_png():
    with Image.open(ROOT / "static" / "img" / "share.png") as image:
        assert image.format == "PNG"
        assert image.size == (1200, 630)


@pytest.mark.parametrize("variant", sorted(GUIDE))
def test_each_variants_rules_describe_that_variant(client, variant):
    path = f"/rules/{variant}/"
    tags = card_of(client.get(path))
    assert_full_card(tags, path=path)
    assert tags["og:title"] == f"Rules of {variant_title(variant)}"
    assert tags["og:description"] == str(GUIDE[variant].summary)


def test_a_card_speaks_the_pages_language(client):
    tags = card_of(client.get(in_language("/rules/draw/", "de")))
    with translation.override("de"):
        title = translation.gettext("Rules of %(variant)s") % {
            "variant": variant_title("draw")
        }
        assert tags["og:title"] == title
        assert tags["og:description"] == str(GUIDE["draw"].summary)
    assert tags["og:locale"] == "de_DE"
    assert (
        tags["og:description"]
        != card_of(client.get(in_language("/rules/block/", "de")))["og:description"]
    )


def test_every_language_has_an_open_graph_locale():
    for code, _name in settings.LANGUAGES:
        assert re.fullmatch(r"[a-z]{2,3}_[A-Z]{2}", og_locale(code)), code


def test_a_player_page_carries_the_players_card(client, make_user):
    make_user("marta")
    # Read signed out, as a chat app's preview fetches it.
    path = "/players/marta/"
    tags = card_of(client.get(path))
    assert_full_card(tags, path=path)
    assert tags["og:title"] == "marta"
    assert tags["og:type"] == "profile"
    assert tags["profile:username"] == "marta"
    assert "marta" in tags["og:description"]
    assert tags["og:image"].endswith(".png") and "/static/img/share" in tags["og:image"]


# --- a replay's card (its picture: test_replay_picture.py)


def test_a_replay_page_shows_its_final_layout_in_its_card(client, make_user, queued):
    table, _ana, _ben = finished_pair(make_user)
    path = f"/tables/{table.pk}/replay/"
    tags = card_of(client.get(path))
    assert_full_card(tags, path=path)
    assert tags["og:image"] == f"{SERVER}/tables/{table.pk}/replay.png"
    assert tags["og:title"] == f"{table_title(table)} · replay"
    assert "ana" in tags["og:description"] and "ben" in tags["og:description"]
    assert variant_title(table.variant) in tags["og:description"]
    assert tags["og:image:alt"] == "The board at the end of the game"


def test_a_shared_practice_replay_carries_its_link_in_its_card(
    client, make_user, queued
):
    owner = make_user("owner")
    table = finished_practice(owner)
    token = replay_share_token(table)
    tags = card_of(client.get(f"/tables/{table.pk}/replay/", {"share": token}))
    assert tags["og:url"] == f"{SERVER}/tables/{table.pk}/replay/?share={token}"
    assert tags["og:image"] == f"{SERVER}/tables/{table.pk}/replay.png?share={token}"
    # What the card points at opens for a stranger, as the page did.
    picture = client.get(f"/tables/{table.pk}/replay.png", {"share": token})
    assert picture.status_code == 200


def test_an_abandoned_replays_card_says_it_was_abandoned(client, make_user, queued):
    owner = make_user("owner")
    table = table_practice_create(user=owner, variant="draw", bot_levels=["easy"])
    table_cancel(table_id=table.pk, reason="idle")
    client.force_login(owner)
    tags = card_of(client.get(f"/tables/{table.pk}/replay/"))
    assert "abandoned before the end" in tags["og:description"]
    assert "owner" in tags["og:description"]
