"""Every page a player can reach fits a 320 px wide phone in every language the
site speaks: nothing makes the page itself scroll sideways (a wide table scrolls
inside its own box).

One browser; the data is made once (two people, a live and a finished practice
table, a league result, an arena they joined, a sit-and-go one entered, a friend
request); then one context per language walks the pages signed out, then signed
in. A failure names each page and language that is too wide, with the elements
that stick out.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.helpers import frame, signup, start_practice
from tests.e2e.test_league_page import _shell, server_db
from tests.support.pages import in_language, signed_in_pages, signed_out_pages

pytestmark = pytest.mark.e2e

WIDTH = 320

DATA = """
import json
import random
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from clubs.chat import club_chat_send
from clubs.services import club_create, club_join
from tournaments.arenas.battles import battle_create
from tournaments.swiss.services import swiss_create
from friends.services import friend_request_send
from games.services import table_practice_create
from tests.leagues.conftest import finish
from tests.support.tables import drive
from tournaments.arenas.services import arena_create, arena_join
from tournaments.sitgo.services import sitgo_enter
User = get_user_model()
me, other = User.objects.get(username={me!r}), User.objects.get(username={other!r})
practice = table_practice_create(
    user=me, variant="draw", options={{"target": 50}}, bot_levels=["easy"],
    bot_speed="instant",
)
ended = drive(practice.pk, {{0: me}}, rng=random.Random(1))
finish(seats=[me, other], places=[1, 2], at=timezone.now())
arena = arena_create(
    pool_key="draw-2", starts_at=timezone.now() + timedelta(hours=1), minutes=30
)
arena_join(arena_id=arena.pk, user=me)
arena_join(arena_id=arena.pk, user=other)
friend_request_send(sender=other, username=me.username)
sitgo = sitgo_enter(user=other, size=4, entry=100)
club = club_create(
    user=me, name="Dominoes at the Harbour Café and Friends",
    description="Every Friday.", language="en", open=True,
)
club_join(user=other, slug=club.slug)
club_chat_send(
    user_id=other.pk, name=other.username, club_id=club.pk, text="A long line " * 16
)
club_create(user=other, name="Pier", description="", language="en", open=True)
soon = timezone.now() + timedelta(hours=1)
swiss = swiss_create(
    user=me, club_slug=club.slug, name="Friday Swiss of the Harbour Café",
    pool="draw-2", rounds=5, round_minutes=30, starts_at=soon, entry=100,
)
battle = battle_create(
    user=me, club_slug=club.slug, rivals=["Pier"], name="Harbour against Pier",
    pool_key="draw-2", starts_at=soon, minutes=60, team_size=3,
)
print(json.dumps({{
    "ended": ended.pk, "arena": arena.pk, "sitgo": sitgo.pk, "club": club.slug,
    "swiss": swiss.pk, "battle": battle.pk,
}}))
"""

WITHDRAW = """
from django.contrib.auth import get_user_model
from tournaments.sitgo.services import sitgo_withdraw
sitgo_withdraw(user=get_user_model().objects.get(username={other!r}), sitgo_id={sitgo})
"""

# The page's width and, for the failure message, what sticks out of the viewport
# (not counting what a box that scrolls or clips holds).
MEASURE = """width => {
  const page = document.scrollingElement.scrollWidth;
  if (page <= width) return {page, out: []};
  const held = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5 && box.width > 0 && !held(el)) {
      const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
        + (el.classList.length ? "." + [...el.classList].join(".") : "");
      out.push(`${name} (${Math.round(box.right)} px)`);
      if (out.length >= 6) break;
    }
  }
  return {page, out};
}"""


def too_wide(page: Page, path: str, ready: str | None) -> str | None:
    """Open ``path``; what sticks out if the page is wider than the phone."""
    response = page.goto(path)
    assert response is not None and response.status < 500, path
    if ready:
        page.locator(ready).first.wait_for(state="attached")
    page.evaluate("document.fonts.ready.then(() => null)")
    found = page.evaluate(MEASURE, WIDTH)
    if found["page"] <= WIDTH:
        return None
    return f"{path}: {found['page']} px wide ({', '.join(found['out'])})"


# About 50 pages in each of 25 languages: four to five minutes on an idle machine,
# more beside other work; the suite's 300 s per test is too short for one walk.
@pytest.mark.timeout(1200)
def test_every_page_fits_a_320_px_phone_in_every_language(
    browser, live_url, new_page, tmp_path_factory
):
    # Names as long and as wide as the sign-up allows: a username or an e-mail
    # address is one unbroken word on many pages.
    other_page = new_page()
    other = signup(other_page, "wwwwwwwww")
    me_page = new_page()
    me = signup(me_page, "wwwwwwwww")
    start_practice(me_page, "block", seats=2, levels=("easy",))
    live = frame(me_page)["table"]["id"]
    out = _shell(server_db(tmp_path_factory), DATA.format(me=me, other=other))
    ids = {**json.loads(out.strip().splitlines()[-1]), "live": live}
    session = [
        c
        for c in me_page.context.cookies()
        if c["name"] != settings.LANGUAGE_COOKIE_NAME
    ]

    try:
        problems = walk(browser, live_url, me, other, ids, session)
    finally:
        # The sit-and-go entry is given back, so that later tests find it empty.
        _shell(server_db(tmp_path_factory), WITHDRAW.format(other=other, **ids))
    assert not problems, "pages wider than 320 px:\n" + "\n".join(problems)


def walk(browser, live_url, me, other, ids, session) -> list[str]:
    """Every page in every language, signed out then in: what is too wide."""
    problems: list[str] = []
    for code, _name in settings.LANGUAGES:
        context: BrowserContext = browser.new_context(
            base_url=live_url, viewport={"width": WIDTH, "height": 640}
        )
        context.set_default_timeout(15_000)
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "url": live_url}]
        )
        try:
            page = context.new_page()
            for path, ready in signed_out_pages(me):
                if found := too_wide(page, in_language(path, code), ready):
                    problems.append(f"[{code}, signed out] {found}")
            context.add_cookies(session)
            page.goto(in_language("/", code))
            expect(page.locator("html")).to_have_attribute("lang", code)
            for path, ready in signed_in_pages(me, other, ids):
                if found := too_wide(page, in_language(path, code), ready):
                    problems.append(f"[{code}] {found}")
        finally:
            context.close()
    return problems
