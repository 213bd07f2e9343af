"""The offline game's pages: ``/play/offline/`` (the table that plays with no
connection, public and the same for every reader, with the config the offline
script reads), the offline notice, and the Play page's offline entry, shown only
where the runtime is installed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.services import table_practice_create
from tests.support.offline_runtime import no_offline_runtime, offline_runtime

pytestmark = pytest.mark.django_db

TABLE_IDS = ("seats", "info", "fair", "result", "match-result", "board", "status",
             "error", "actions", "hand", "sound-toggle", "leave")  # fmt: skip


def config_of(page: str) -> dict[str, Any]:
    found = re.search(
        r'<script id="offline-config" type="application/json">(.*?)</script>',
        page,
        re.DOTALL,
    )
    assert found, "no #offline-config"
    return dict(json.loads(found.group(1)))


def test_the_offline_page_holds_the_table_and_its_config(tmp_path):
    with offline_runtime(tmp_path):
        response = Client().get("/play/offline/")
        assert response.status_code == 200
        page = response.content.decode()
        config = config_of(page)
    assert reverse("offline") == "/play/offline/"
    assert config["offline"] is True
    assert set(config["variants"]) == set(engine.VARIANTS)
    assert config["variants"]["fives"]["title"]
    assert config["runtime"] == {
        "pyodide": "/static/vendor/pyodide/pyodide.mjs",
        "pure": "/static/offline/pure.zip",
        "worker": "/static/js/offline/worker.js",
    }
    assert config["upload"] == "/play/offline/results/"
    for element in TABLE_IDS:
        assert f'id="{element}"' in page, element
    assert 'id="play-form"' in page and 'name="variant"' in page
    assert '<script type="module" src="/static/js/offline/main.js"></script>' in page
    assert "data-offline-runtime" in page
    assert "no-cache" in response["Cache-Control"]


def test_the_offline_page_carries_nothing_of_a_session(make_user, tmp_path):
    """Signed in, with a message waiting: the page is the signed-out reader's,
    sets no cookie, and leaves the message for the next page."""
    user = make_user()
    client = Client()
    client.force_login(user)
    # A rematch asked for before the game's end leaves a message for the next page.
    table = table_practice_create(
        user=user, variant="draw", bot_levels=["easy"], bot_speed="instant"
    )
    client.post(reverse("table-rematch", args=[table.pk]))
    with offline_runtime(tmp_path):
        mine = client.get("/play/offline/")
        theirs = Client().get("/play/offline/")
        notice = client.get("/play/offline/notice/")
        their_notice = Client().get("/play/offline/notice/")
    page = mine.content.decode()
    assert mine.content == theirs.content
    assert not mine.cookies and not theirs.cookies and not notice.cookies
    assert user.username not in page
    assert "csrfmiddlewaretoken" not in page and "before a rematch" not in page
    assert notice.content == their_notice.content
    later = client.get(reverse("my-games")).content.decode()
    assert "Finish or leave this game before a rematch." in later


def test_without_the_runtime_the_offline_game_hides_itself(make_user, tmp_path):
    client = Client()
    client.force_login(make_user())
    with no_offline_runtime(tmp_path):
        page = client.get("/play/offline/").content.decode()
        play = client.get(reverse("play")).content.decode()
        notice = client.get("/play/offline/notice/").content.decode()
    assert config_of(page)["runtime"] is None
    assert 'id="offline-missing"' in page
    assert "js/offline/main.js" not in page and 'id="play-form"' not in page
    assert 'id="offline-entry"' not in play and "/play/offline/" not in play
    assert "practice against the computer is available" not in notice


def test_the_play_page_offers_the_offline_game(make_user, tmp_path):
    client = Client()
    client.force_login(make_user())
    with offline_runtime(tmp_path):
        play = client.get(reverse("play")).content.decode()
    assert 'id="offline-entry"' in play and "data-offline-runtime" in play
    assert '<a class="button ghost" href="/play/offline/" id="offline-link">' in play


def test_the_offline_notice_leads_to_the_offline_game(tmp_path):
    with offline_runtime(tmp_path):
        response = Client().get("/play/offline/notice/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "You are offline: practice against the computer is available." in page
    assert 'href="/play/offline/" id="offline-notice-play"' in page


def test_the_live_table_keeps_its_markup(make_user):
    from tests.support.tables import finished_practice

    user = make_user()
    table = finished_practice(user=user)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    for element in TABLE_IDS:
        assert f'id="{element}"' in page, element
