"""The embedded game's pages: parameters with fallbacks, the language, headers,
starting and resuming games with no cookie, tokens, the rate limit."""

from __future__ import annotations

import json

import pytest
from django.core import signing
from django.core.cache import cache
from django.test import Client

from embed.models import EmbedGame
from embed.params import choice_from
from embed.tokens import SALT, token_make, token_read
from games.models import Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def start(client: Client, **data: str):
    return client.post("/embed/new/", data)


# --- parameters


def test_parameters_preset_the_game():
    choice = choice_from(
        {"variant": "all_fives", "seats": "4", "target": "150", "level": "hard"}
    )
    assert (choice.variant, choice.seats, choice.target, choice.level) == (
        "all_fives",
        4,
        150,
        "hard",
    )


@pytest.mark.parametrize(
    "data",
    [
        {"variant": "nope", "seats": "x", "target": "-1", "level": "god"},
        {"variant": "", "seats": "99", "target": "1e9", "level": ""},
        {"variant": "<script>", "seats": "2.5", "target": None, "speed": "warp"},
        {},
    ],
)
def test_bad_parameters_fall_back_to_the_defaults(data):
    choice = choice_from(data)
    assert (choice.variant, choice.seats, choice.level, choice.speed) == (
        "draw",
        2,
        "easy",
        "normal",
    )
    assert choice.target == 100


def test_a_value_the_variant_does_not_allow_falls_back_to_its_own_default():
    # Seats and target are checked against the variant chosen, not any variant.
    choice = choice_from({"variant": "fives", "seats": "5", "target": "70"})
    assert choice.variant == "fives"
    assert choice.seats == 2
    assert choice.target == 100
    assert choice_from({"variant": "spider", "target": "70"}).target == 70
    assert choice_from({}, "all-fives").variant == "all_fives"


def test_the_frame_shows_the_form_preset_and_the_link(client):
    page = client.get("/embed/all-fives/?seats=3&target=150&level=medium")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<option value="all_fives" selected>' in html
    assert '<option value="3" selected>' in html
    assert '<option value="150" selected>' in html
    assert '<option value="medium" selected>' in html
    assert 'id="embed-link"' in html
    assert "Play dominoes online at testserver" in html
    assert 'href="http://testserver/" target="_blank" rel="noopener"' in html


def test_bad_parameters_show_the_default_game_not_an_error_page(client):
    page = client.get(
        "/embed/nothing-like-it/?seats=zz&target=%00&level=%3Cb%3E&lang=klingon"
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert '<option value="draw" selected>' in html
    assert 'id="embed-link"' in html


def test_the_language_comes_from_lang_or_the_browser(client):
    spanish = client.get("/embed/?lang=es").content.decode()
    assert '<html lang="es" dir="ltr">' in spanish
    assert "Jugar hasta" in spanish
    browser = client.get("/embed/", HTTP_ACCEPT_LANGUAGE="pl,en;q=0.5")
    assert '<html lang="pl" dir="ltr">' in browser.content.decode()
    assert browser["Content-Language"] == "pl"
    english = client.get("/embed/?lang=zz", HTTP_ACCEPT_LANGUAGE="xx")
    assert '<html lang="en" dir="ltr">' in english.content.decode()


def test_the_frame_sets_no_cookie(client):
    page = client.get("/embed/?lang=es", HTTP_ACCEPT_LANGUAGE="it")
    assert page.cookies == {} or not any(
        name in page.cookies for name in ("sessionid", "csrftoken", "django_language")
    )
    assert "sessionid" not in page.cookies and "csrftoken" not in page.cookies


# --- headers


def test_only_the_frame_may_be_framed(client):
    for path in ("/embed/", "/embed/draw/", "/embed/?variant=bad"):
        page = client.get(path)
        assert "X-Frame-Options" not in page, path
        policy = page["Content-Security-Policy"]
        assert policy.endswith("frame-ancestors *"), path
        assert "frame-ancestors 'none'" not in policy
        assert "script-src 'self'" in policy
    for path in ("/", "/embed/code/", "/accounts/login/", "/rules/"):
        page = client.get(path)
        assert page["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in page["Content-Security-Policy"], path


# --- starting and resuming


def test_a_new_game_seats_a_new_guest_against_the_computer(client):
    reply = start(client, variant="draw", seats="3", target="50", level="medium")
    assert reply.status_code == 201
    body = reply.json()
    game = EmbedGame.objects.select_related("table", "guest").get()
    table, guest = game.table, game.guest
    assert table.mode == Table.Mode.PRACTICE
    assert table.status == Table.Status.PLAYING
    assert table.options["seats"] == 3 and table.options["target"] == 50
    seats = list(table.seats.order_by("position"))
    assert seats[0].user_id == guest.pk
    assert [s.bot_level for s in seats[1:]] == ["medium", "medium"]
    assert guest.is_active is False
    assert not guest.has_usable_password()
    assert body["game"]["id"] == table.pk
    assert body["game"]["ws"].startswith(f"/ws/embed/tables/{table.pk}/?token=")
    claim = token_read(body["token"])
    assert (claim.table_id, claim.guest_id) == (table.pk, guest.pk)
    # No session: the client has no cookie but the partitioned game cookie.
    assert "sessionid" not in reply.cookies and "csrftoken" not in reply.cookies
    cookie = reply.cookies["embed_game"]
    assert cookie.value == body["token"]
    assert cookie["secure"] and cookie["httponly"]
    assert "Partitioned" in cookie.output()


def test_starting_needs_no_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert start(client).status_code == 201


def test_bad_form_values_start_the_default_game(client):
    reply = start(client, variant="zzz", seats="42", target="x", level="none")
    assert reply.status_code == 201
    table = EmbedGame.objects.get().table
    assert table.variant == "draw" and table.options["seats"] == 2


def test_a_token_resumes_its_game(client):
    token = start(client).json()["token"]
    other = Client()  # another load of the frame, with no cookie at all
    reply = other.post("/embed/resume/", {"token": token})
    assert reply.status_code == 200
    assert reply.json()["game"]["id"] == EmbedGame.objects.get().table_id


def test_a_json_body_works_too(client):
    token = start(client).json()["token"]
    reply = client.post(
        "/embed/resume/", json.dumps({"token": token}), content_type="application/json"
    )
    assert reply.status_code == 200
    broken = client.post("/embed/resume/", "[[[", content_type="application/json")
    assert broken.status_code == 404


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),
        lambda t: "x" + t,
        lambda t: "",
        lambda t: "not-a-token",
    ],
)
def test_a_tampered_token_is_refused_with_a_player_message(client, tamper):
    token = start(client).json()["token"]
    reply = client.post(
        "/embed/resume/", {"token": tamper(token)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert reply.status_code == 404
    error = reply.json()["error"]
    assert error["message"] == "This game can no longer be continued. Start a new game."
    assert "Signature" not in error["message"] and "token" not in error["message"]


def test_a_token_we_signed_for_another_guest_is_refused(client):
    start(client)
    game = EmbedGame.objects.get()
    # Signed with our key and salt but naming another user: no such game.
    forged = token_make(table_id=game.table_id, guest_id=game.guest_id + 1000)
    assert client.post("/embed/resume/", {"token": forged}).status_code == 404
    # Our key with another salt is not an embed token at all.
    other_salt = signing.dumps({"t": game.table_id, "g": game.guest_id}, salt="x")
    assert SALT != "x"
    assert client.post("/embed/resume/", {"token": other_salt}).status_code == 404


def test_the_saved_cookie_is_offered_for_the_same_game_only(client):
    token = start(client, variant="draw", level="easy").json()["token"]
    client.cookies["embed_game"] = token
    same = client.get("/embed/?variant=draw&level=easy")
    config = json.loads(
        same.content.decode()
        .split('id="embed-config" type="application/json">')[1]
        .split("</script>")[0]
    )
    assert config["saved"] == token
    other = client.get("/embed/?variant=all_fives")
    assert token not in other.content.decode()
    fresh = client.get("/embed/?variant=draw&level=easy&new=1")
    assert token not in fresh.content.decode()


def test_the_fair_deal_for_the_token(client):
    token = start(client).json()["token"]
    reply = client.get("/embed/fair.json", {"token": token})
    assert reply.status_code == 200
    assert client.get("/embed/fair.json", {"token": token + "x"}).status_code == 404


# --- the rate limit


def test_new_games_are_limited_per_address(client, settings):
    settings.EMBED_RATE_LIMIT = 3
    for _ in range(3):
        reply = client.post("/embed/new/", {}, REMOTE_ADDR="203.0.113.5")
        assert reply.status_code == 201
    refused = client.post("/embed/new/", {}, REMOTE_ADDR="203.0.113.5")
    assert refused.status_code == 429
    assert "try again in an hour" in refused.json()["error"]["message"]
    assert EmbedGame.objects.count() == 3
    # Another address is counted on its own.
    assert client.post("/embed/new/", {}, REMOTE_ADDR="198.51.100.7").status_code == 201


def test_a_refused_game_leaves_nothing_behind(client, settings):
    settings.EMBED_RATE_LIMIT = 1
    start(client)
    users = Seat.objects.count()
    assert start(client).status_code == 429
    assert Seat.objects.count() == users
    assert EmbedGame.objects.count() == 1


# --- the snippet builder


def test_the_snippet_builder_page(client):
    page = client.get("/embed/code/?variant=all_fives")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="embed-snippet"' in html and 'id="embed-copy"' in html
    assert 'id="embed-preview"' in html
    assert "/embed/?variant=all_fives" in html
    assert "js/embed/code.js" in html
