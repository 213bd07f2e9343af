"""Every page a player reads, rendered in each language the site speaks, carries no
English phrase of our own catalog (nor of the allauth and Django strings it
borrows): what the page says went through the catalog and the catalog has it in
that language.

The pages are the ones the phone-width walk opens (tests/support/pages.py): signed
out and signed in, a live and a finished table with its replay and review, the
league, an arena, a sit-and-go, friends, the wallet, the embed. They render
in-process, one client per language.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.chat import club_chat_send
from clubs.services import club_create, club_join
from friends.services import friend_request_send
from games.services import table_practice_create
from tests.economy.conftest import fund
from tests.leagues.conftest import finish
from tests.support.catalogs import (
    SHIPPED,
    english_found,
    english_phrases,
    readable_text,
)
from tests.support.pages import in_language, signed_in_pages, signed_out_pages
from tests.support.tables import finished_practice
from tournaments.arenas.battles import battle_create
from tournaments.arenas.services import arena_create, arena_join
from tournaments.sitgo.services import sitgo_enter
from tournaments.swiss.services import swiss_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(make_user):
    """Two players and what their pages show."""
    me, other = make_user("marta"), make_user("joan")
    live = table_practice_create(user=me, variant="block", bot_levels=["easy"])
    ended = finished_practice(me)
    finish(seats=[me, other], places=[1, 2], at=timezone.now())
    arena = arena_create(
        pool_key="draw-2", starts_at=timezone.now() + timedelta(hours=1), minutes=30
    )
    arena_join(arena_id=arena.pk, user=me)
    arena_join(arena_id=arena.pk, user=other)
    friend_request_send(sender=other, username=me.username)
    fund(other.pk, 1000)
    sitgo = sitgo_enter(user=other, size=4, entry=100)
    club = club_create(
        user=me, name="Harbour", description="Fridays.", language="en", open=False
    )
    club_join(user=other, slug=club.slug)  # a request, shown to the leader
    club_chat_send(user_id=me.pk, name=me.username, club_id=club.pk, phrase="thanks")
    club_create(user=other, name="Pier", description="", language="en", open=True)
    soon = timezone.now() + timedelta(hours=1)
    swiss = swiss_create(
        user=me,
        club_slug=club.slug,
        name="Friday Swiss",
        pool="draw-2",
        rounds=3,
        round_minutes=30,
        starts_at=soon,
        entry=100,
    )
    battle = battle_create(
        user=me,
        club_slug=club.slug,
        rivals=["Pier"],
        name="Harbour against Pier",
        pool_key="draw-2",
        starts_at=soon,
        minutes=60,
        team_size=3,
    )
    ids = {
        "live": live.pk,
        "ended": ended.pk,
        "arena": arena.pk,
        "sitgo": sitgo.pk,
        "club": club.slug,
        "swiss": swiss.pk,
        "battle": battle.pk,
    }
    return me, other, ids


def untranslated(client: Client, path: str, language: str) -> list[str]:
    response = client.get(in_language(path, language))
    assert response.status_code < 500, (path, response.status_code)
    page = response.content.decode()
    if response.status_code == 200:
        assert f'lang="{language}"' in page, path
    return english_found(readable_text(page), language)


def test_no_page_shows_english_from_our_catalog(site):
    """One walk per language over the same data (made once: a played table is the
    slow part)."""
    me, other, ids = site
    leftovers: dict[str, list[str]] = {}
    for language in SHIPPED:
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for path, _ready in signed_out_pages(me.username):
            if found := untranslated(client, path, language):
                leftovers[f"[{language}] signed out {path}"] = found
        client.force_login(me)
        for path, _ready in signed_in_pages(me.username, other.username, ids):
            if found := untranslated(client, path, language):
                leftovers[f"[{language}] {path}"] = found
    assert not leftovers, "\n".join(f"{k}: {v[:6]}" for k, v in leftovers.items())


def test_the_check_sees_english(make_user):
    """The same check on the English pages finds the catalog's phrases."""
    client = Client()
    client.force_login(make_user("Marta"))
    text = readable_text(client.get(reverse("wallet")).content.decode())
    assert english_found(text, "es")
    assert any(found.search(text) for _p, found in english_phrases("es"))
