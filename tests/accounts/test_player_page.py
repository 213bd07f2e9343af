"""A player's public page: readable signed out (a pasted link previews), with what
is the player's own shown only to them."""

import pytest

from tests.games.test_share_cards import card_of

pytestmark = pytest.mark.django_db


def main_of(response) -> str:
    """The page's own content, without the navigation every page carries."""
    return response.content.decode().split("<main", 1)[1].split("</main>", 1)[0]


def test_a_player_page_is_public_with_its_card_in_every_language(client, make_user):
    make_user("marta")
    for path in ("/players/marta/", "/de/players/marta/", "/ar/players/marta/"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        tags = card_of(resp)
        assert tags["og:title"] == "marta"
        assert tags["profile:username"] == "marta"
    page = main_of(client.get("/players/marta/"))
    # The player's own facts and every form that needs a reader stay out.
    assert "marta@example.com" not in page
    assert "/wallet/" not in page and "Coins" not in page
    assert "friend" not in page.lower()
    assert "/block/" not in page and "/unblock/" not in page
    assert "<h1>marta</h1>" in page and "Member since" in page


def test_another_player_sees_the_page_without_the_owners_coins(client, make_user):
    make_user("marta")
    client.force_login(make_user("joan"))
    body = main_of(client.get("/players/marta/"))
    assert "Add marta as a friend" in body
    assert "Coins" not in body and "marta@example.com" not in body


def test_the_owner_sees_coins_and_e_mail_on_their_own_page(client, make_user):
    marta = make_user("marta")
    client.force_login(marta)
    body = main_of(client.get("/players/marta/"))
    assert "Coins" in body and "/wallet/" in body
    assert "marta@example.com" in body


def test_a_closed_account_or_unknown_name_has_no_page(client, make_user):
    ghost = make_user("ghost")
    ghost.is_active = False
    ghost.save()
    assert client.get("/players/ghost/").status_code == 404
    assert client.get("/players/nobody-here/").status_code == 404
