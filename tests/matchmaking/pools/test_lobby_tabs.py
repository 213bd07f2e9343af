"""Ranked and Stakes are two tabs of the online lobby; the nav lights one item."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def current_links(html: str) -> list[str]:
    """The hrefs of the links marked as the current page."""
    return re.findall(r'<a href="([^"]+)"[^>]*aria-current="page"', html)


@pytest.mark.parametrize(
    ("page", "tab", "other"),
    [("lobby", "tab-ranked", "tab-stakes"), ("stakes", "tab-stakes", "tab-ranked")],
)
def test_each_lobby_tab_links_the_other(client, make_user, page, tab, other):
    client.force_login(make_user())
    html = client.get(reverse(page)).content.decode()
    assert re.search(rf'id="{tab}"[^>]*aria-current="page"', html), html
    assert re.search(rf'id="{other}"', html)
    assert not re.search(rf'id="{other}"[^>]*aria-current', html)
    assert (
        f'href="{reverse("lobby")}"' in html and f'href="{reverse("stakes")}"' in html
    )


@pytest.mark.parametrize(
    ("page", "lit"), [("lobby", "lobby"), ("stakes", "lobby"), ("play", "play")]
)
def test_the_nav_lights_only_the_most_specific_item(client, make_user, page, lit):
    client.force_login(make_user())
    html = client.get(reverse(page)).content.decode()
    nav = html.split('<nav class="nav"', 1)[1].split("</nav>", 1)[0]
    assert current_links(nav) == [reverse(lit)]
