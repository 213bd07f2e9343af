"""The Play and Create-a-room forms are rendered as their script would show them:
only the chosen variant's rules, the computers and house rules it allows, the
partnership box at four seats, so the page does not move when the script runs
(tests/e2e/test_accessibility.py checks that the script agrees)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.engine import VARIANTS
from games.forms import MAX_BOTS, PlayForm

pytestmark = pytest.mark.django_db


class _Parts(HTMLParser):
    """Whether each part of the form is shown: ``{"variant:draw": True, ...}``."""

    KEYS = {
        "data-variant": "variant",
        "data-bot": "bot",
        "data-field": "field",
        "data-choice": "choice",
    }

    def __init__(self) -> None:
        super().__init__()
        self.shown: dict[str, bool] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id") == "variant-choices":
            self.shown["choices"] = "hidden" not in found
        for attr, kind in self.KEYS.items():
            if attr in found and tag in ("section", "div"):
                self.shown[f"{kind}:{found[attr]}"] = "hidden" not in found


def shown(html: str) -> dict[str, bool]:
    parts = _Parts()
    parts.feed(html)
    return parts.shown


@pytest.fixture
def player(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    return user


def test_the_play_page_shows_only_the_initial_variants_parts(client, player):
    parts = shown(client.get(reverse("play")).content.decode())
    assert [v for v in VARIANTS if parts[f"variant:{v}"]] == ["draw"]
    # Two seats: one computer, no partnership; Draw offers its house rules.
    assert [n for n in range(1, MAX_BOTS + 1) if parts[f"bot:{n}"]] == [1]
    assert parts["field:partnership"] is False
    assert parts["choices"] is True
    assert parts["choice:deal"] is True
    assert parts["choice:tiles_per_seat"] is False


def test_a_refused_form_shows_the_parts_of_what_was_sent(client, player):
    response = client.post(
        reverse("play"),
        {"variant": "catalan", "seats": "4", "target": "250", "bot_1": "easy"},
    )
    assert response.status_code == 400
    parts = shown(response.content.decode())
    assert [v for v in VARIANTS if parts[f"variant:{v}"]] == ["catalan"]
    assert [n for n in range(1, MAX_BOTS + 1) if parts[f"bot:{n}"]] == [1, 2, 3]
    assert parts["field:partnership"] is True  # forced at four seats
    assert parts["choice:tiles_per_seat"] is True
    assert parts["choice:deal"] is False


def test_a_variant_without_house_rules_hides_their_fieldset(client, player):
    response = client.post(reverse("play"), {"variant": "spider", "seats": "4"})
    parts = shown(response.content.decode())
    assert parts["variant:spider"] is True
    assert parts["choices"] is False
    # Spider is played by two: a seat count it does not allow shows its smallest.
    assert [n for n in range(1, MAX_BOTS + 1) if parts[f"bot:{n}"]] == [1]
    assert parts["field:partnership"] is False


def test_the_layout_falls_back_like_the_script():
    # A list with no option selected shows its first one as chosen.
    unknown = PlayForm({"variant": "no-such-game", "seats": "many"}).layout()
    assert (unknown.variant, unknown.seats) == (next(iter(VARIANTS)), 2)
    never = PlayForm({"variant": "cross", "seats": "4"}).layout()
    assert (never.seats, never.partnership, never.choices) == (4, False, frozenset())


def test_the_room_form_shows_only_the_initial_variants_parts(client, player):
    html = client.get(reverse("room-new")).content.decode()
    parts = shown(html)
    assert [v for v in VARIANTS if parts[f"variant:{v}"]] == ["draw"]
    assert parts["field:partnership"] is False
    assert parts["choices"] is True
    # Each help text the fields point to (aria-describedby) is on the page.
    assert 'id="id_clock_helptext"' in html
    assert 'id="id_allow_spectators_helptext"' in html
