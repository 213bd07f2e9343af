"""Public names: the staff's words and the word filter, through disguises, and
the sign-up form refusing such a username in words."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from core.names import name_impersonates, name_offends


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Admin_Ana",
        "a.d.m.i.n",
        "SiteModerator",
        "staff-ben",
        "OfficialDominoes",
        "support42",
        "dominoes_team",
        "mod",
        "the-mods",
        "System",
        "\u0430dmin",  # Cyrillic a
        "Adm\u00edn",  # accented i
        "ad\u200bmin",  # a zero-width space inside
        "badminton_admin",
    ],
)
def test_names_passing_as_staff(name):
    assert name_impersonates(name)


@pytest.mark.parametrize(
    "name", ["ana", "Modesto", "systemic", "Badminton_Ben", "rooted", "Developing"]
)
def test_ordinary_names(name):
    assert not name_impersonates(name)
    assert not name_offends(name)


@pytest.mark.parametrize("name", ["fuck_you", "sh1t", "Puta", "c4zzo"])
def test_names_the_filter_masks(name):
    assert name_offends(name)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("admin_ana", "That name belongs to the site&#x27;s staff; choose another."),
        (
            "shit_player",
            "That name holds a word the site does not allow; choose another.",
        ),
    ],
)
def test_sign_up_refuses_such_a_username(client, username, message):
    reply = client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": "a-Long-pass-42",
            "password2": "a-Long-pass-42",
        },
    )
    assert reply.status_code == 200
    assert message in reply.content.decode()
    assert not get_user_model().objects.filter(username=username).exists()


def test_an_ordinary_word_holding_a_root_is_not_the_staff():
    assert not name_impersonates("Badminton_Ben")
    assert not name_impersonates("supportive-sam")
