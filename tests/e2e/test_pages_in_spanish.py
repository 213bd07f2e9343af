"""The pages this round changed, in Spanish on a desktop and a phone: no English
from our catalogs on them, and a screenshot of each in test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import create_room, screenshot, signup, start_practice
from tests.support.catalogs import english_found

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def spanish(page: Page) -> None:
    page.goto("/")
    page.locator("footer select[name=language]").select_option("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")


def english_on(page: Page) -> list[str]:
    return english_found(
        page.locator("body").inner_text(), "es", ("django", "djangojs")
    )


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_room_join_and_table_pages_in_spanish(new_page, device):
    size = PHONE if device == "phone" else {}
    host = new_page(**size)
    signup(host, "anfitrion")
    create_room(host, seats=2)
    room_url = host.url
    link = host.locator("#share-link").input_value()
    spanish(host)
    host.goto(room_url)
    expect(host.locator("#room-seats")).to_be_visible()
    expect(host.get_by_role("button", name="Copiar enlace")).to_be_visible()
    assert english_on(host) == []
    screenshot(host, f"room-es-{device}")

    friend = new_page(**size)
    spanish(friend)
    friend.goto(link)
    expect(friend.locator("#join-invite")).to_contain_text("te invita a jugar")
    assert english_on(friend) == []
    screenshot(friend, f"room-join-signed-out-es-{device}")

    player = new_page(**size)
    signup(player, "jugador")
    start_practice(player, "block", seats=2, levels=("easy",))
    table_url = player.url
    spanish(player)
    player.goto(table_url)
    info = player.locator("#info")
    expect(info).to_contain_text("Mano 1")
    expect(info).not_to_contain_text("Pozo")
    screenshot(player, f"table-block-es-{device}")
