"""What a competitive player reads around a ranked table (issue 31), in a browser:
the result of an online table (new rating with its "?", the change, the coins and
XP it paid; Find another table and Back to the lobby), the pool cards, a held
seat's banner, the leaderboard's own standing and the stake lobby. Desktop and
phone screenshots, in English and in Spanish (Spanish asserts structure only: the
translations come later).

Tables are made and played in the server's own database by a ``manage.py shell``
process, through the table services (``tests.support.tables.drive``). That process
owes them no league points (its league consequence is unregistered), so the league
pages' tests sharing this server see none of these online tables.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import screenshot, signup
from tests.e2e.test_league_page import DESKTOP, PHONE, _shell, both_sizes, server_db

pytestmark = pytest.mark.e2e

ONLINE_TABLE = """
import random
from django.contrib.auth import get_user_model
from django.utils import timezone
from games import finish
from games.services import seat_join, table_create, table_start
from matchmaking.models import Search
finish._registry.pop("league", None)
from tests.support.tables import drive
User = get_user_model()
people = [User.objects.get(username=n) for n in {names!r}]
table = table_create(
    mode="online", variant="draw", options={{"target": 50}}, clock_seconds=30,
    hand_pause_seconds=0,
)
for user in people:
    seat_join(table_id=table.pk, user=user)
    Search.objects.create(
        user=user, pool="draw-2", rating=1500, status=Search.Status.SEATED,
        seated_table_id=table.pk, started_at=timezone.now(), seen_at=timezone.now(),
    )
table_start(table_id=table.pk)
if {finish!r}:
    drive(table.pk, dict(enumerate(people)), rng=random.Random(5))
print(table.pk)
"""


def online_table(db, names: list[str], *, finish: bool) -> int:
    out = _shell(db, ONLINE_TABLE.format(names=names, finish=finish))
    return int(out.strip().splitlines()[-1])


def result_shots(page: Page, table_id: int, name: str) -> None:
    """The match result on a phone and a desktop, each page laid out at its size
    (the board lays itself out when the page loads)."""
    for size, suffix in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(f"/tables/{table_id}/")
        page.locator("#main-action").click()
        expect(page.locator("#match-result [data-rating]")).to_contain_text("?")
        if suffix == "phone":
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE[0], f"{name}: the phone page scrolls sideways"
        screenshot(page, f"{name}-{suffix}")


def to_spanish(page: Page) -> None:
    page.locator("footer select[name=language]").select_option("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_an_online_result_shows_rating_earnings_and_the_way_on(
    new_page, live_url, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    ana, ben = new_page(), new_page()
    names = [signup(ana, "ana"), signup(ben, "ben")]
    table_id = online_table(db, names, finish=True)
    ana.goto(f"/tables/{table_id}/")
    ana.locator("#main-action").click()  # "Finish": the match's result
    result = ana.locator("#match-result")
    expect(result).to_be_visible()
    rating = result.locator("[data-rating]")
    expect(rating).to_have_text(re.compile(r"^Your rating: \d[\d,]*\? \([-+±]\d+\)$"))
    expect(result.locator("[data-earned]")).to_contain_text(re.compile(r"\d+ XP"))
    expect(result.get_by_role("button", name="Find another table")).to_be_visible()
    expect(result.get_by_role("link", name="Back to the lobby")).to_have_attribute(
        "href", "/play/online/"
    )
    expect(result.get_by_role("link", name="New game")).to_have_count(0)
    result_shots(ana, table_id, "table-result-online-en")
    to_spanish(ana)
    result_shots(ana, table_id, "table-result-online-es")
    expect(ana.locator("#match-result form[data-again] button")).to_be_visible()
    # Find another table: a search in the same pool, shown by the lobby.
    ana.locator("#match-result form[data-again] button").click()
    ana.wait_for_url(re.compile(r"/play/online/$"))
    expect(ana.locator("#lobby-search")).to_be_visible()
    expect(ana.locator('#lobby-search [data-field="title"]')).to_contain_text("2")
    ana.locator("#lobby-cancel").click()
    expect(ana.locator("#lobby-search")).to_be_hidden()


def test_the_lobby_cards_the_held_seat_and_the_leaderboard(
    new_page, live_url, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    page, other = new_page(), new_page()
    names = [signup(page, "cy"), signup(other, "dee")]
    page.goto("/play/online/")
    pools = page.locator("ul.pools")
    assert pools.evaluate("e => getComputedStyle(e).display") == "grid"
    assert pools.evaluate("e => getComputedStyle(e).listStyleType") == "none"
    card = page.locator('li.pool[data-pool="block-2"]')
    expect(card.locator('[data-field="rating"]')).to_have_text("1500?")
    expect(card.locator('[data-field="target"]')).to_have_text(
        re.compile(r"^50 points · about \d+ hands$")
    )
    expect(card.locator('[data-field="clock"]')).to_have_text(re.compile(r"seconds"))
    expect(page.locator("#lobby-private")).to_have_attribute("href", "/rooms/new/")
    expect(page.locator("button.find").first).to_be_enabled()
    both_sizes(page, "lobby-pools-en")
    to_spanish(page)
    expect(
        page.locator('li.pool[data-pool="block-2"] [data-field="rating"]')
    ).to_have_text("1500?")
    both_sizes(page, "lobby-pools-es")
    page.locator("footer select[name=language]").select_option("en")
    # A finished table and a live one: the last rated table is named, the seat held.
    online_table(db, names, finish=True)
    live_id = online_table(db, names, finish=False)
    page.goto("/play/online/")
    expect(page.locator(".last-rating")).to_contain_text("Your last rated table (Draw)")
    banner = page.locator("#lobby-status")
    expect(banner).to_contain_text("Game in progress")
    expect(banner.get_by_role("link", name="Back to your table")).to_have_attribute(
        "href", f"/tables/{live_id}/"
    )
    page.wait_for_timeout(500)  # the socket's state frame has arrived
    for button in page.locator("button.find").all():
        expect(button).to_be_disabled()
    both_sizes(page, "lobby-seat-held-en")
    page.goto("/leaderboard/draw/")
    you = page.locator("#leaderboard-you")
    expect(you).to_contain_text(re.compile(r"You: \d+\?, 1 of 10 rated tables"))
    expect(page.locator(".leaderboard-variants a")).to_have_count(
        len({"block", "draw", "all_fives", "fives", "catalan", "spider"})
    )
    both_sizes(page, "leaderboard-standing-en")
    to_spanish(page)
    expect(page.locator("#leaderboard-you strong")).to_contain_text("?")
    both_sizes(page, "leaderboard-standing-es")


def test_the_stake_lobby_says_balance_payout_wait_and_styles_errors(new_page):
    page = new_page()
    signup(page, "eli")
    page.goto("/play/stakes/")
    expect(page.locator("#stakes-balance")).to_contain_text("coins")
    group = page.locator('.stake-group[data-stake="100"][data-shape="block-2"]')
    expect(group.locator("[data-pays]")).to_have_text(
        "The winner takes 200 coins, no commission."
    )
    expect(page.locator("#stakes-wait")).to_contain_text("seconds")
    # A second Quick seat while seated is refused: the error looks like one.
    group.get_by_role("button", name="Quick seat").click()
    expect(page.locator("#stakes-you")).to_contain_text("You are seated")
    page.locator('.stake-group[data-stake="100"][data-shape="block-2"]').get_by_role(
        "button", name="Quick seat"
    ).click()
    error = page.locator("#stakes-error")
    expect(error).to_be_visible()
    assert "msg" in (error.get_attribute("class") or "")
    background = error.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")
    both_sizes(page, "stakes-lobby-en")
    to_spanish(page)
    expect(page.locator("#stakes-balance")).to_be_visible()
    both_sizes(page, "stakes-lobby-es")
    page.locator("#stakes-you").get_by_role("button").click()  # Stand up
    # Stood up for certain, or the seat would wait at an open table for the
    # next test's Quick seat.
    expect(page.locator("#stakes-you [data-you]")).to_have_count(0)


def test_a_rematch_both_players_accept_seats_them_together(
    new_page, live_url, tmp_path_factory
):
    db = server_db(tmp_path_factory)
    ana, ben = new_page(), new_page(width=PHONE[0], height=PHONE[1])
    names = [signup(ana, "fio"), signup(ben, "gus")]
    table_id = online_table(db, names, finish=True)
    for page in (ana, ben):
        page.goto(f"/tables/{table_id}/")
        page.locator("#main-action").click()
    offer = ana.locator("#match-result form[data-rematch] button")
    expect(offer).to_have_text("Offer a rematch")
    offer.click()
    expect(ana.locator("[data-rematch-status]")).to_contain_text(
        "waiting for the other"
    )
    expect(ana.locator("#match-result form[data-rematch]")).to_be_hidden()
    accept = ben.locator("#match-result form[data-rematch] button")
    expect(accept).to_have_text("Accept the rematch")
    expect(ben.locator("[data-rematch-status]")).to_contain_text(
        f"{names[0]} offers a rematch."
    )
    screenshot(ana, "table-rematch-offered-en-desktop")
    screenshot(ben, "table-rematch-offer-en-phone")
    to_spanish(ben)
    ben.locator("#main-action").click()
    accept = ben.locator("#match-result form[data-rematch] button")
    expect(accept).to_be_visible()
    expect(ben.locator("[data-rematch-status]")).to_contain_text(names[0])
    screenshot(ben, "table-rematch-offer-es-phone")
    accept.click()
    for page in (ana, ben):
        page.wait_for_url(re.compile(r"/tables/(\d+)/$"))
        page.wait_for_function(
            f"() => !location.pathname.endsWith('/tables/{table_id}/')"
        )
    assert ana.url == ben.url
