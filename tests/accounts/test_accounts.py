"""Sign-up, log-in by username or e-mail, log-out, password reset, and bad input."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"


def signup(client, **fields):
    data = {
        "username": "Alice_1",
        "email": "alice@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(fields)
    return client.post("/accounts/signup/", data)


def test_signup_creates_the_account_and_logs_in(client):
    resp = signup(client)
    assert resp.status_code == 302
    user = get_user_model().objects.get()
    assert user.username == "Alice_1"  # casing kept for display
    home = client.get("/")
    assert home.context["user"] == user
    assert b"Alice_1" in home.content


@pytest.mark.parametrize(
    ("username", "fragment"),
    [
        ("ab", "at least 3"),
        ("a" * 21, "at most 20"),
        ("bad name", "only letters, digits"),
        ("semi;colon", "only letters, digits"),
        ("ünïcode", "only letters, digits"),
        ("", "required"),
    ],
)
def test_bad_usernames_get_clear_errors_and_create_nothing(client, username, fragment):
    resp = signup(client, username=username)
    assert resp.status_code == 200
    errors = " ".join(resp.context["form"].errors.get("username", []))
    assert fragment in errors
    assert not get_user_model().objects.exists()


def test_duplicate_username_in_any_case_is_refused(client, make_user):
    make_user("Marta")
    resp = signup(client, username="mARTA", email="other@example.com")
    assert resp.status_code == 200
    assert "username" in resp.context["form"].errors
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(
    ("password", "fragment"),
    [
        ("short1!", "too short"),
        ("password123", "too common"),
        ("8312937465", "numeric"),
    ],
)
def test_weak_passwords_are_refused(client, password, fragment):
    resp = signup(client, password1=password, password2=password)
    assert resp.status_code == 200
    errors = " ".join(resp.context["form"].errors.get("password1", []))
    assert fragment in errors
    assert not get_user_model().objects.exists()


def test_duplicate_email_is_refused(client, make_user):
    make_user("first")
    resp = signup(client, username="second", email="first@example.com")
    assert resp.status_code == 200
    assert "email" in resp.context["form"].errors


@pytest.mark.parametrize("login", ["Kasia", "kasia@example.com"])
def test_login_by_username_or_email_then_logout(client, make_user, login):
    user = make_user("Kasia")
    resp = client.post("/accounts/login/", {"login": login, "password": PASSWORD})
    assert resp.status_code == 302
    assert client.get("/").context["user"] == user
    resp = client.post("/accounts/logout/")
    assert resp.status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_wrong_password_is_refused(client, make_user):
    make_user("Kasia")
    resp = client.post("/accounts/login/", {"login": "Kasia", "password": "nope-nope"})
    assert resp.status_code == 200
    assert resp.context["form"].errors
    assert not client.get("/").context["user"].is_authenticated


def test_password_reset_sends_a_mail_with_a_working_link(client, make_user):
    make_user("Jordi")
    resp = client.post("/accounts/password/reset/", {"email": "jordi@example.com"})
    assert resp.status_code == 302
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    link = next(w for w in body.split() if "/accounts/password/reset/key/" in w)
    path = link.split("testserver", 1)[1]
    form = client.get(path, follow=True)
    assert form.status_code == 200
    new = "another-Long-pass-9"
    resp = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else path,
        {"password1": new, "password2": new},
    )
    assert resp.status_code == 302
    assert client.login(username="Jordi", password=new)


def test_profile_needs_login_and_shows_the_player(client, make_user):
    assert client.get("/profile/").status_code == 302
    client.force_login(make_user("Pere"))
    resp = client.get("/profile/")
    assert resp.status_code == 200
    assert b"Pere" in resp.content


def test_malformed_signup_post_creates_nothing(client):
    resp = client.post("/accounts/signup/", {"username": ["x", "y"], "junk": "1"})
    assert resp.status_code == 200
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_demo_accounts_get_the_sign_up_grant_like_any_new_player():
    from django.core.management import call_command

    from economy import conf
    from economy.selectors import wallet_balance

    call_command("demo_data")
    User = get_user_model()
    for username in ("alice", "bob", "carol"):
        user = User.objects.get(username=username)
        assert wallet_balance(user_id=user.pk) == conf.signup_grant() > 0
    call_command("demo_data")  # a second run creates and grants nothing
    assert wallet_balance(user_id=User.objects.get(username="alice").pk) == (
        conf.signup_grant()
    )
