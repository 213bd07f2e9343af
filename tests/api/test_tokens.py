"""Personal access tokens: hashed at rest, scopes, revocation, where they count,
the cap per player and the rate limit."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings

from api.errors import ApiError
from api.models import ApiToken
from api.tokens import token_create
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db


def test_the_secret_is_not_stored_only_its_hash(make_user, make_token):
    user = make_user()
    token, secret = make_token(user)
    assert secret.startswith("dom_") and len(secret) > 40
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM api_apitoken")
        rows = cursor.fetchall()
    assert rows and not any(secret in str(row) for row in rows)
    assert not any(secret[len(token.prefix) :] in str(row) for row in rows)
    assert secret.startswith(token.prefix)


def test_a_token_reads_its_account(client, make_user, make_token):
    user = make_user("ana")
    _, secret = make_token(user)
    answer = client.get("/api/account", **bearer(secret))
    assert answer.status_code == 200
    assert answer.json()["username"] == "ana"
    assert answer.json()["bot"] is False
    assert ApiToken.objects.get().last_used_at is not None


def test_a_missing_scope_is_refused_in_words(client, make_user, make_token):
    _, secret = make_token(make_user(), scopes=("read",))
    answer = client.post(
        "/api/practice", {}, content_type="application/json", **bearer(secret)
    )
    assert answer.status_code == 403
    assert "scope" in answer.json()["error"]
    _, play_only = make_token(make_user(), scopes=("play",))
    assert client.get("/api/account", **bearer(play_only)).status_code == 403


def test_revoked_and_unknown_tokens_are_refused(client, make_user, make_token):
    user = make_user()
    token, secret = make_token(user)
    client.force_login(user)
    page = client.post("/account/tokens/", {"revoke": token.pk})
    assert page.status_code == 302
    answer = client.get("/api/account", **bearer(secret))
    assert answer.status_code == 401
    assert answer.json() == {
        "error": "This token is not valid: it was revoked or never existed."
    }
    assert client.get("/api/account", **bearer("dom_nothing")).status_code == 401


def test_a_token_in_the_query_string_is_refused(client, make_user, make_token):
    _, secret = make_token(make_user())
    for name in ("token", "access_token"):
        answer = client.get(f"/api/account?{name}={secret}")
        assert answer.status_code == 400
        assert "Authorization header" in answer.json()["error"]
    # Not accepted even alongside a good header: the address leaked it.
    answer = client.get(f"/api/account?token={secret}", **bearer(secret))
    assert answer.status_code == 400


def test_a_session_cookie_is_not_accepted(client, make_user):
    client.force_login(make_user())
    answer = client.get("/api/account")
    assert answer.status_code == 401
    assert "Authorization" in answer.json()["error"]


def test_a_token_signs_nobody_in_outside_the_api(client, make_user, make_token):
    _, secret = make_token(make_user())
    answer = client.get("/account/tokens/", **bearer(secret))
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert client.get("/games/", **bearer(secret)).status_code in (302, 404)


def test_errors_follow_the_requests_language(client, make_user):
    answer = client.get("/api/account", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 401
    assert answer["Content-Type"] == "application/json"
    assert "error" in answer.json()
    assert answer["Content-Language"] == "es"


def test_at_most_twenty_live_tokens(make_user, make_token):
    user = make_user()
    tokens = [make_token(user, name=f"t{i}")[0] for i in range(20)]
    with pytest.raises(ApiError) as refused:
        make_token(user, name="one more")
    assert refused.value.status == 409
    assert ApiToken.objects.filter(owner=user).count() == 20
    tokens[0].revoked_at = tokens[0].created_at
    tokens[0].save()
    make_token(user, name="in its place")


def test_the_bot_scope_is_for_bot_accounts_only(make_user, make_token):
    from accounts.models import BotAccount

    person = make_user()
    with pytest.raises(ApiError) as refused:
        token_create(owner=person, name="b", scopes=["bot"])
    assert refused.value.status == 403
    bot = make_user()
    BotAccount.objects.create(user=bot)
    token, _ = token_create(owner=bot, name="b", scopes=["bot"])
    assert token.scope_list() == ["bot"]


@override_settings(API_RATE=0.5, API_BURST=3)
def test_over_the_rate_is_429_with_retry_after(
    client, make_user, make_token, monkeypatch
):
    # One moment inside a six-second window: no window ends between the requests.
    monkeypatch.setattr("api.auth._clock", lambda: 6_000_000.5)
    _, secret = make_token(make_user())
    codes = [client.get("/api/account", **bearer(secret)).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = client.get("/api/account", **bearer(secret))
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "Too many requests" in refused.json()["error"]
    # Another token of the same player has its own allowance.
    _, other = make_token(make_user())
    assert client.get("/api/account", **bearer(other)).status_code == 200


def test_the_tokens_page_shows_a_new_secret_once(client, make_user):
    user = make_user()
    client.force_login(user)
    made = client.post(
        "/account/tokens/", {"name": "my bot", "scopes": ["read", "play"]}
    )
    assert made.status_code == 200
    token = ApiToken.objects.get(owner=user)
    secret = made.context["secret"]
    assert secret.encode() in made.content
    assert token.scopes == "play read"
    again = client.get("/account/tokens/")
    assert secret.encode() not in again.content
    assert token.prefix.encode() in again.content
    refused = client.post("/account/tokens/", {"name": "x", "scopes": ["bot"]})
    assert refused.status_code == 400
    assert ApiToken.objects.filter(owner=user).count() == 1


def test_the_profile_links_the_tokens_page(client, make_user):
    user = make_user("ana")
    client.force_login(user)
    page = client.get("/players/ana/")
    assert b"/account/tokens/" in page.content
