"""A player whose browser asks for Arabic, Turkish, Brazilian Portuguese, Japanese
or Filipino signs up, reads the rules, enters a sit-and-go (and withdraws), plays
a hand at a ranked table (a labelled computer fills the other seat) and opens a
hand's review, with only the page's controls; no page or screen they see on the
way shows an English phrase of our catalogs, and Arabic reads right to left.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import frame, main_button, screenshot, signup, wait_ready
from tests.e2e.test_league_page import _shell, server_db
from tests.e2e.test_right_to_left import act
from tests.support.catalogs import english_found
from tests.support.pages import in_language

pytestmark = pytest.mark.e2e

# Browser language (Accept-Language) -> the site's language.
BROWSERS = {
    "ar-EG": "ar",
    "tr-TR": "tr",
    "pt-BR": "pt-br",
    "ja-JP": "ja",
    "fil-PH": "fil",
}

RANKED_TABLE = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.services import seat_join, table_create, table_start
from matchmaking.models import Search
me = get_user_model().objects.get(username={name!r})
table = table_create(
    mode="online", variant="draw", options={{"target": 100}}, clock_seconds=60,
    hand_pause_seconds=0, bot_speed="instant",
)
seat_join(table_id=table.pk, user=me)
Search.objects.create(
    user=me, pool="draw-2", rating=1500, status=Search.Status.SEATED,
    seated_table_id=table.pk, started_at=timezone.now(), seen_at=timezone.now(),
)
seat_join(table_id=table.pk, bot_level="medium", simulated=True, name="Vera42")
table_start(table_id=table.pk)
print(table.pk)
"""

WITHDRAW = """
from django.contrib.auth import get_user_model
from tournaments.sitgo.services import sitgo_withdraw
sitgo_withdraw(user=get_user_model().objects.get(username={name!r}), sitgo_id={sitgo})
"""


def english_on(page: Page, language: str, what: str) -> None:
    text = page.locator("body").inner_text()
    found = english_found(text, language, ("django", "djangojs"))
    assert not found, f"{what} in {language}: {found[:8]}"


def play_the_hand(page: Page) -> None:
    for _ in range(80):
        if not act(page):
            break
    assert frame(page)["view"]["phase"] in ("hand_over", "match_over")


@pytest.mark.parametrize("browser_language", list(BROWSERS))
def test_every_word_on_the_way_is_in_my_language(
    new_page, tmp_path_factory, browser_language
):
    language = BROWSERS[browser_language]
    page = new_page(locale=browser_language)
    page.goto("/accounts/signup/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("html")).to_have_attribute(
        "dir", "rtl" if language == "ar" else "ltr"
    )
    english_on(page, language, "sign-up")
    name = signup(page, "word")

    for path in ("/", "/rules/", "/rules/draw/", "/play/online/", "/tournaments/"):
        page.goto(in_language(path, language))
        english_on(page, language, path)

    # A sit-and-go: entered from the tournaments page, then withdrawn.
    db = server_db(tmp_path_factory)
    page.goto("/tournaments/")
    page.locator('[data-sitgo-kind="4-100"] button[type=submit]').first.click()
    page.wait_for_url(re.compile(r"/tournaments/sitgo/\d+/$"))
    sitgo = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    try:
        english_on(page, language, "sit-and-go")
        screenshot(page, f"journey-{language}-sitgo")
    finally:
        _shell(db, WITHDRAW.format(name=name, sitgo=sitgo))

    # A ranked table, its other seat a labelled computer: one hand by clicking.
    table = int(_shell(db, RANKED_TABLE.format(name=name)).strip().splitlines()[-1])
    page.goto(f"/tables/{table}/")
    wait_ready(page)
    assert frame(page)["table"]["mode"] == "online"
    english_on(page, language, "ranked table")
    play_the_hand(page)
    expect(page.locator("#result")).to_be_visible()
    english_on(page, language, "hand result")
    screenshot(page, f"journey-{language}-ranked-result")

    # A practice hand and its review.
    page.goto("/play/")
    english_on(page, language, "play")
    page.select_option("select[name=bot_speed]", "instant")
    page.locator(
        "#play-form button[type=submit], form.play-form button[type=submit]"
    ).first.click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    wait_ready(page)
    practice = frame(page)["table"]["id"]
    expect(main_button(page)).to_be_visible()
    play_the_hand(page)
    page.locator("#result [data-review-hand]").click()
    page.wait_for_url(f"**/tables/{practice}/review/1/")
    expect(page.locator(".review-seats")).to_be_visible(timeout=60_000)
    english_on(page, language, "review")
    screenshot(page, f"journey-{language}-review")
